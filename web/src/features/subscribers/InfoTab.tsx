import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { isSubscriptionOver, paymentMethodLabel, periodicityLabel, subscriptionStatusLabel } from '@/lib/club';
import { formatDateBR } from '@/lib/dates';
import { formatCpf, formatPhone } from '@/lib/masks';
import { formatBRL } from '@/lib/money';
import { clientPath, contractStatusClass, contractStatusLabel, planPath, providerSubscriptionUrl } from './paths';
import { formatInstant } from './timeline';
import type { SubscriptionDetail } from './types';

/** Whether the subscription is over or its cancellation was asked: no cancel action (spec 02 §2). */
export const isCanceled = (detail: SubscriptionDetail) =>
  isSubscriptionOver(detail.Status) || detail.CancellationRequested || detail.InternalStatus === 'CANCELED';

const dateText = (value: string | null | undefined) => (value ? formatDateBR(value) : '—');

function Card({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="subscriber-card" aria-label={title}>
      <h2 className="subscriber-card-title">{title}</h2>
      <dl className="subscriber-facts">{children}</dl>
      {actions && <div className="subscriber-card-actions">{actions}</div>}
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="subscriber-fact">
      <dt>{label}</dt>
      <dd>{children || '—'}</dd>
    </div>
  );
}

interface InfoTabProps {
  detail: SubscriptionDetail;
  /** ADMIN: may cancel. */
  canCancel: boolean;
  /** Roles that reach the plans get 'Ver Plano'. */
  showPlanLink: boolean;
  /** A past view: actions are off. */
  past: boolean;
  onCancel: () => void;
  onUpdate: () => void;
  updating: boolean;
}

/** Informações: status, amounts and the client, subscription, plan and integration cards. */
export function InfoTab({ detail, canCancel, showPlanLink, past, onCancel, onUpdate, updating }: InfoTabProps) {
  const offPast = past ? 'Indisponível ao visualizar o passado' : undefined;
  return (
    <div className="subscriber-info">
      <div className="subscriber-stats">
        <div className="subscriber-stat" aria-label="Status">
          <span className="subscriber-stat-label">Status</span>
          <span className="subscriber-stat-value">
            {detail.Status ? subscriptionStatusLabel(detail.Status) : 'Aguardando o provedor'}
          </span>
          <span className={contractStatusClass(detail.InternalStatus)}>{contractStatusLabel(detail.InternalStatus)}</span>
        </div>
        <div className="subscriber-stat" aria-label="Valor recebido">
          <span className="subscriber-stat-label">Valor recebido</span>
          <span className="subscriber-stat-value status-active">{formatBRL(detail.AmountReceived)}</span>
        </div>
        <div className="subscriber-stat" aria-label="Valor a receber">
          <span className="subscriber-stat-label">Valor a receber</span>
          <span className="subscriber-stat-value">{formatBRL(detail.AmountToReceive)}</span>
        </div>
      </div>

      <div className="subscriber-cards">
        <Card
          title="Cliente"
          actions={
            <Link className="button button-secondary" to={clientPath(detail.User.IdUser)}>
              Ver Cliente
            </Link>
          }
        >
          <Fact label="Nome">{detail.User.Name}</Fact>
          <Fact label="E-mail">{detail.User.Email}</Fact>
          <Fact label="CPF">{formatCpf(detail.User.Cpf)}</Fact>
          <Fact label="Telefone">{formatPhone(detail.User.Phone)}</Fact>
          <Fact label="Nascimento">{dateText(detail.User.BirthDate)}</Fact>
        </Card>

        <Card
          title="Assinatura"
          actions={
            canCancel &&
            !isCanceled(detail) && (
              <button type="button" className="button button-danger" onClick={onCancel} disabled={past} title={offPast}>
                Cancelar assinatura
              </button>
            )
          }
        >
          <Fact label="Valor do plano">{formatBRL(detail.PlanValue)}</Fact>
          <Fact label="Periodicidade">{periodicityLabel(detail.Periodicity)}</Fact>
          <Fact label="Forma de pagamento">{paymentMethodLabel(detail.MainPaymentMethodId)}</Fact>
          <Fact label="Primeiro pagamento">{dateText(detail.FirstPayDayDate)}</Fact>
          <Fact label="Criada em">{detail.CreatedAt ? formatInstant(detail.CreatedAt) : '—'}</Fact>
          <Fact label="Cobranças">
            {detail.Quantity ? `${detail.Quantity}` : detail.Quantity === 0 ? 'Infinitas' : '—'}
          </Fact>
          {detail.CancellationRequested && <Fact label="Cancelamento">Solicitado</Fact>}
        </Card>

        <Card
          title="Plano"
          actions={
            showPlanLink && (
              <Link className="button button-secondary" to={planPath(detail.IdSubscriptionDetail)}>
                Ver Plano
              </Link>
            )
          }
        >
          <Fact label="Nome">{detail.PlanName}</Fact>
          <Fact label="Valor">{formatBRL(detail.PlanValue)}</Fact>
          <Fact label="Vigência">
            {detail.ValidityStart || detail.ValidityEnd
              ? `${dateText(detail.ValidityStart)} a ${dateText(detail.ValidityEnd)}`
              : '—'}
          </Fact>
        </Card>

        <Card
          title="Integração"
          actions={
            <>
              {detail.GalaxPayId !== null && (
                <a
                  className="button button-secondary"
                  href={providerSubscriptionUrl(detail.GalaxPayId)}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  Ver na GalaxPay
                </a>
              )}
              <button
                type="button"
                className="button button-primary"
                onClick={onUpdate}
                disabled={past || updating}
                title={offPast}
              >
                Atualizar dados
              </button>
            </>
          }
        >
          <Fact label="GalaxPayId">{detail.GalaxPayId ?? ''}</Fact>
          <Fact label="Meu ID">{detail.MyId}</Fact>
        </Card>
      </div>
    </div>
  );
}
