import { Link } from 'react-router';
import { DataTable, type Column } from '@/components/list/ListPage';
import { contractStatusLabel } from '@/lib/club';
import { formatDateBR, shortTime } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import { useGetClientVisitsQuery } from './clientsApi';
import type { ClientDetail, ClientVisit } from './types';

export const NO_VISITS = 'Nenhum agendamento deste cliente.';

/**
 * How a visit stands: cancelled; 'Realizado' only when served (its comanda closed, issue 41);
 * 'Não compareceu'; the client arrived; past with nothing recorded; or booked ahead.
 */
export function visitStatus(visit: Pick<ClientVisit, 'Status' | 'Past' | 'Confirmation' | 'Attendance'>): string {
  if (!visit.Status) return 'Cancelado';
  if (visit.Attendance === 'ATTENDED') return 'Realizado';
  if (visit.Attendance === 'NO_SHOW') return 'Não compareceu';
  if (visit.Attendance === 'ARRIVED') return 'Cliente chegou';
  if (visit.Past) return 'Sem atendimento registrado';
  return visit.Confirmation ? 'Confirmado' : 'Agendado';
}

const COLUMNS: Column<ClientVisit>[] = [
  { header: 'Data', cell: (v) => `${formatDateBR(v.Date)} ${shortTime(v.StartTime)}` },
  { header: 'Serviços', cell: (v) => v.Services.join(', ') },
  { header: 'Profissional', cell: (v) => v.ProfessionalName },
  { header: 'Unidade', cell: (v) => v.CompanyName },
  { header: 'Valor', cell: (v) => formatBRL(v.Value) },
  { header: 'Situação', cell: visitStatus },
];

/** The client form's no-show figures (issue 44): the last 90 days (what blocks online booking) and ever. */
export const noShowFigures = ({ NoShows, NoShowsLast90Days }: Pick<ClientDetail, 'NoShows' | 'NoShowsLast90Days'>): [string, string][] => [
  ['Faltas (90 dias)', String(NoShowsLast90Days)],
  ['Faltas (total)', String(NoShows)],
];

/**
 * The client's visits on the client form (issue 17): what they came for, spent and missed,
 * and their subscription, from the agenda's read model. The no-shows are the client's
 * (GET user/{id}, issue 44), as the client search and the online block count them.
 */
export function ClientVisitsPanel({ client }: { client: Pick<ClientDetail, 'IdUser' | 'NoShows' | 'NoShowsLast90Days'> }) {
  const { data, isFetching } = useGetClientVisitsQuery(client.IdUser);
  const subscription = data?.SubscriptionUser[0];
  const figures: [string, string][] = data
    ? [
        ['Visitas realizadas', String(data.VisitsMade)],
        ['Total gasto', formatBRL(data.TotalSpent)],
        ['Última visita', data.LastVisit ? formatDateBR(data.LastVisit) : '—'],
        ['Próxima visita', data.NextVisit ? formatDateBR(data.NextVisit) : '—'],
        ['Cancelamentos', String(data.Cancellations)],
        ...noShowFigures(client),
      ]
    : [];
  return (
    <section className="history-panel client-visits" aria-labelledby="client-visits-title">
      <h2 id="client-visits-title" className="section-title">
        Visitas
      </h2>
      {data && (
        <dl className="client-visit-figures">
          {figures.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
          <div>
            <dt>Assinatura</dt>
            <dd>
              {subscription ? (
                <Link to={`/dashboard/subscription-user-detail-form/${subscription.IdSubscriptionUser}`}>
                  {subscription.PlanName ?? 'Plano'} ({contractStatusLabel(subscription.InternalStatus)})
                </Link>
              ) : (
                'Sem assinatura'
              )}
            </dd>
          </div>
        </dl>
      )}
      <DataTable
        columns={COLUMNS}
        rows={data?.Visits}
        rowKey={(v) => v.IdScheduling}
        emptyText={NO_VISITS}
        loading={isFetching}
        label="Visitas do cliente"
      />
    </section>
  );
}
