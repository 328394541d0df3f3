import { useNavigate } from 'react-router';
import { Icon } from '@/components/Icon';
import { SelectField } from '@/components/form/fields';
import {
  DataTable,
  LIST_PAGE_SIZE,
  ListFilters,
  ListPage,
  stopRowClick,
  useListFilters,
  type Column,
} from '@/components/list/ListPage';
import { TextField } from '@/components/TextField';
import { CONTRACT_STATUS_OPTIONS } from '@/lib/club';
import { formatPhone } from '@/lib/masks';
import { formatBRL } from '@/lib/money';
import { whatsAppLink } from '@/lib/whatsapp';
import { contractStatusClass, contractStatusLabel, reminderMessage, subscriberPath } from './paths';
import {
  useGetSubscriberPlanOptionsQuery,
  useGetSubscribersQuery,
  useSendSubscriberReminderMutation,
} from './subscribersApi';
import type { SubscriberListItem } from './types';
import './subscribers.css';

/** Everything by default: plan 'Todos' (0) and every status. */
const DEFAULT_FILTERS = { description: '', idSubscriptionDetail: '0', internalStatus: '' };

const STATUS_OPTIONS = [{ value: '', label: 'Todos' }, ...CONTRACT_STATUS_OPTIONS];

/** Subscribers ('Assinantes'): filters, table of 5 per page, WhatsApp and the charge reminder. */
export default function SubscriberListPage() {
  const navigate = useNavigate();
  const filters = useListFilters(DEFAULT_FILTERS);
  const { data: plans } = useGetSubscriberPlanOptionsQuery();
  const { data, isFetching } = useGetSubscribersQuery({
    page: filters.page,
    pageSize: LIST_PAGE_SIZE,
    description: filters.applied.description,
    idSubscriptionDetail: Number(filters.applied.idSubscriptionDetail) || 0,
    internalStatus: filters.applied.internalStatus,
  });
  const [sendReminder] = useSendSubscriberReminderMutation();

  const planOptions = [
    { value: '0', label: 'Todos' },
    ...(plans ?? []).map((plan) => ({ value: String(plan.IdSubscriptionDetail), label: plan.PlanName })),
  ];

  const columns: Column<SubscriberListItem>[] = [
    { header: 'Plano', cell: (row) => row.PlanName },
    { header: 'Cliente', cell: (row) => <span className="subscriber-name">{row.User.Name}</span> },
    {
      header: 'Telefone',
      cell: (row) =>
        row.User.Phone ? (
          <a
            {...stopRowClick}
            className="subscriber-phone"
            href={whatsAppLink(row.User.Phone)}
            target="_blank"
            rel="noopener noreferrer"
            title="Abrir conversa no WhatsApp"
          >
            {formatPhone(row.User.Phone)}
          </a>
        ) : (
          '—'
        ),
    },
    { header: 'Valor', cell: (row) => formatBRL(row.PlanValue) },
    {
      header: 'Status',
      cell: (row) => <span className={contractStatusClass(row.InternalStatus)}>{contractStatusLabel(row.InternalStatus)}</span>,
    },
    {
      header: 'Ações',
      className: 'table-actions',
      cell: (row) =>
        row.InternalStatus === 'PENDING_PAYMENT' && row.User.Phone ? (
          <a
            className="icon-button subscriber-whatsapp"
            href={whatsAppLink(row.User.Phone, reminderMessage(row.User.Name, row.PlanName))}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`Lembrar ${row.User.Name} do pagamento`}
            title="Lembrete de cobrança"
            onClick={(event) => {
              event.stopPropagation();
              // Recorded in the subscription's history; a failure must not bother the user.
              void sendReminder(row.IdSubscriptionUser);
            }}
          >
            <Icon name="whatsapp" />
          </a>
        ) : null,
    },
  ];

  return (
    <ListPage
      title="Assinantes"
      filters={
        <ListFilters onSearch={filters.search} onClear={filters.clear}>
          <TextField
            label="Busque por nome, e-mail, CPF ou telefone"
            variant="search"
            autoComplete="off"
            className="subscriber-search"
            {...filters.field('description')}
          />
          <SelectField
            label="Plano"
            options={planOptions}
            {...filters.field('idSubscriptionDetail')}
          />
          <SelectField
            label="Status"
            options={STATUS_OPTIONS}
            {...filters.field('internalStatus')}
          />
        </ListFilters>
      }
      table={
        <DataTable
          label="Assinantes"
          columns={columns}
          rows={data?.content}
          rowKey={(row) => row.IdSubscriptionUser}
          onRowClick={(row) => navigate(subscriberPath(row.IdSubscriptionUser))}
          emptyText="Nenhum registro encontrado"
          loading={isFetching}
        />
      }
      page={filters.page}
      total={data?.total}
      onPage={filters.setPage}
    />
  );
}
