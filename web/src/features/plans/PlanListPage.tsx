import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAppSelector } from '@/state/hooks';
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
import { paymentMethodLabel, PLAN_PAYMENT_METHODS, PLAN_STATUS_OPTIONS } from '@/lib/club';
import { formatBRL } from '@/lib/money';
import { selectRoleType } from '@/state/sessionSlice';
import { planPath } from './paths';
import { useGetPlansQuery } from './plansApi';
import { mayEditPlans } from './schema';
import { SendLinkModal } from './SendLinkModal';
import type { PlanListItem } from './types';
import './plans.css';


export const NOTHING_FOUND = 'Nenhum registro encontrado';
export const CHOOSE_FILTER = 'Escolha um campo para filtar os planos de assinatura';

/** Every plan at first: a club has a handful of plans, the owner wants to see them. */
const DEFAULT_FILTERS = { description: '', paymentMethod: '', status: '' };

const PAYMENT_FILTER_OPTIONS = [{ value: '', label: 'Todos' }, ...PLAN_PAYMENT_METHODS];
const STATUS_FILTER_OPTIONS = [{ value: '', label: 'Todos' }, ...PLAN_STATUS_OPTIONS];

/** Planos: filters, the plans 5 a page, edit and send-link actions, 'Novo plano' (ADMIN). */
export default function PlanListPage() {
  const navigate = useNavigate();
  const canEdit = mayEditPlans(useAppSelector(selectRoleType));
  const filters = useListFilters(DEFAULT_FILTERS);
  const [sending, setSending] = useState<PlanListItem | null>(null);
  const { data, isFetching } = useGetPlansQuery({
    page: filters.page,
    pageSize: LIST_PAGE_SIZE,
    ...filters.applied,
  });
  // Empty states (spec 02 §2 names two, not when): a search that found nothing shows
  // 'Nenhum registro encontrado' and, under the table, the hint to choose other filters;
  // the unfiltered list is empty only while the club has no plan, and says just that.
  const filtered = Object.values(filters.applied).some((value) => value.trim() !== '');
  const searchFoundNothing = filtered && data?.content.length === 0 && !isFetching;

  const columns: Column<PlanListItem>[] = [
    { header: 'Nome', cell: (plan) => <span className="plan-name">{plan.PlanName}</span> },
    { header: 'Descrição', cell: (plan) => <span className="plan-description">{plan.Description}</span> },
    {
      header: 'Valor',
      cell: (plan) => (
        <span className="plan-prices">
          <span className="plan-nowrap">{formatBRL(plan.Value)}</span>
          {/* The prices of the methods accepted besides the main one. */}
          {(plan.Prices ?? [])
            .filter((price) => price.PaymentMethod !== plan.PaymentMethod)
            .map((price) => (
              <span key={price.PaymentMethod} className="plan-other-price muted">
                {paymentMethodLabel(price.PaymentMethod)}: {formatBRL(price.Value)}
              </span>
            ))}
        </span>
      ),
    },
    { header: 'Assinantes', cell: (plan) => plan.Subscribers },
    {
      header: 'Status',
      cell: (plan) => (
        <span className={plan.Status ? 'status-active' : 'status-inactive'}>{plan.Status ? 'Ativo' : 'Inativo'}</span>
      ),
    },
    {
      header: 'Ações',
      className: 'table-actions',
      cell: (plan) => (
        <span className="plan-actions">
          <Link
            {...stopRowClick}
            className="icon-button"
            to={planPath(plan.IdSubscriptionDetail)}
            aria-label={`${canEdit ? 'Editar' : 'Ver'} ${plan.PlanName}`}
            title={canEdit ? 'Editar' : 'Ver'}
          >
            <Icon name="edit" />
          </Link>
          <button
            type="button"
            className="icon-button"
            // An inactive plan cannot be subscribed: the server refuses its links.
            disabled={!plan.Status}
            aria-label={`Enviar link de ${plan.PlanName}`}
            title={plan.Status ? 'Enviar link' : 'Plano inativo'}
            onClick={(event) => {
              event.stopPropagation();
              setSending(plan);
            }}
          >
            <Icon name="mail" />
          </button>
        </span>
      ),
    },
  ];

  return (
    <>
      <ListPage
        title="Planos"
        actions={
          canEdit && (
            <Link className="button button-primary" to={planPath('new')}>
              Novo plano
            </Link>
          )
        }
        filters={
          <ListFilters onSearch={filters.search} onClear={filters.clear}>
            <TextField
              label="Busque pelo nome ou descrição"
              variant="search"
              autoComplete="off"
              className="plan-search"
              {...filters.field('description')}
            />
            <SelectField
              label="Forma de pagamento"
              options={PAYMENT_FILTER_OPTIONS}
              {...filters.field('paymentMethod')}
            />
            <SelectField
              label="Status"
              options={STATUS_FILTER_OPTIONS}
              {...filters.field('status')}
            />
          </ListFilters>
        }
        table={
          <>
            <DataTable
              label="Planos"
              columns={columns}
              rows={data?.content}
              rowKey={(plan) => plan.IdSubscriptionDetail}
              onRowClick={(plan) => navigate(planPath(plan.IdSubscriptionDetail))}
              emptyText={NOTHING_FOUND}
              loading={isFetching}
            />
            {searchFoundNothing && <p className="muted plan-hint">{CHOOSE_FILTER}</p>}
          </>
        }
        page={filters.page}
        total={data?.total}
        onPage={filters.setPage}
      />
      {sending && <SendLinkModal plan={sending} onClose={() => setSending(null)} />}
    </>
  );
}
