import { Link, useNavigate } from 'react-router';
import { useAppSelector } from '@/state/hooks';
import { Icon } from '@/components/Icon';
import { SelectField } from '@/components/form/fields';
import {
  DataTable,
  LIST_PAGE_SIZE,
  ListFilters,
  ListPage,
  STATUS_FILTER_OPTIONS,
  stopRowClick,
  useListFilters,
  type Column,
} from '@/components/list/ListPage';
import { TextField } from '@/components/TextField';
import { formatPhone } from '@/lib/masks';
import { whatsAppLink } from '@/lib/whatsapp';
import { selectRoleType } from '@/state/sessionSlice';
import { useGetClientsQuery } from './clientsApi';
import { mayEditClients, reachesSubscriptions } from './schema';
import type { ClientListItem } from './types';
import { UnconfirmedBadge } from './Unconfirmed';
import './clients.css';

export const CLIENTS_PATH = '/dashboard/client';
export const clientPath = (id: number) => `${CLIENTS_PATH}/${id}`;
export const subscriptionPath = (id: number) => `/dashboard/subscription-user-detail-form/${id}`;

/** Spec 02 §2: search empty and status 1 (Ativo) by default. */
const DEFAULT_FILTERS = { search: '', status: '1' };

/** Clients ('Clientes'): search, status filter, table of 5 per page. */
export default function ClientListPage() {
  const navigate = useNavigate();
  const role = useAppSelector(selectRoleType);
  const canEdit = mayEditClients(role);
  const showSubscription = reachesSubscriptions(role);
  const filters = useListFilters(DEFAULT_FILTERS);
  const { data, isFetching } = useGetClientsQuery({
    page: filters.page,
    pageSize: LIST_PAGE_SIZE,
    search: filters.applied.search,
    status: filters.applied.status,
  });

  const columns: Column<ClientListItem>[] = [
    { header: 'Nome', cell: (client) => client.Name },
    { header: 'Email', cell: (client) => <span className="client-email">{client.Email}</span> },
    { header: 'Telefone', cell: (client) => formatPhone(client.Phone) },
    {
      header: 'Status',
      cell: (client) => (
        <span className="client-status">
          <span className={client.Status ? 'status-active' : 'status-inactive'}>{client.Status ? 'Ativo' : 'Inativo'}</span>
          {client.Unconfirmed && <UnconfirmedBadge />}
        </span>
      ),
    },
    {
      header: 'Ações',
      className: 'table-actions',
      cell: (client) => {
        const subscription = client.SubscriptionUser?.[0];
        return (
          <span className="client-actions">
            {showSubscription && subscription && (
              <Link
                {...stopRowClick}
                className="icon-button"
                to={subscriptionPath(subscription.IdSubscriptionUser)}
                aria-label={`Assinatura de ${client.Name}`}
                title="Assinatura"
              >
                <Icon name="verified" />
              </Link>
            )}
            <Link
              {...stopRowClick}
              className="icon-button"
              to={clientPath(client.IdUser)}
              aria-label={`${canEdit ? 'Editar' : 'Ver'} ${client.Name}`}
              title={canEdit ? 'Editar' : 'Ver'}
            >
              <Icon name="edit" />
            </Link>
            {client.Phone && (
              <a
                {...stopRowClick}
                className="icon-button client-whatsapp"
                href={whatsAppLink(client.Phone)}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`WhatsApp de ${client.Name}`}
                title="WhatsApp"
              >
                <Icon name="whatsapp" />
              </a>
            )}
          </span>
        );
      },
    },
  ];

  return (
    <ListPage
      title="Clientes"
      actions={
        canEdit && (
          <Link className="button button-primary" to={`${CLIENTS_PATH}/new`}>
            Novo cliente
          </Link>
        )
      }
      filters={
        <ListFilters onSearch={filters.search} onClear={filters.clear}>
          <TextField
            label="Busque pelo nome, telefone ou email"
            variant="search"
            autoComplete="off"
            {...filters.field('search')}
          />
          <SelectField
            label="Status"
            options={STATUS_FILTER_OPTIONS}
            {...filters.field('status')}
          />
        </ListFilters>
      }
      table={
        <DataTable
          label="Clientes"
          columns={columns}
          rows={data?.content}
          rowKey={(client) => client.IdUser}
          onRowClick={(client) => navigate(clientPath(client.IdUser))}
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
