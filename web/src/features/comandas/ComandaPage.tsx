import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useGetCompaniesQuery } from '@/api/companiesApi';
import { useLiveChanges } from '@/api/liveChanges';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Icon } from '@/components/Icon';
import { agendaSlice } from '@/features/agenda';
import { useGetSchedulingQuery } from '@/features/agenda/api/agendaApi';
import { useGetClientQuery } from '@/features/clients/clientsApi';
import { HistoryList } from '@/features/history/HistoryList';
import { formatDateBR, shortTime } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import { notifySuccess } from '@/lib/notify';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import { companySelected, selectRoleType } from '@/state/sessionSlice';
import {
  useCancelComandaMutation,
  useCloseComandaMutation,
  useGetComandaQuery,
  useRefundPaymentMutation,
  useRemoveItemMutation,
  useRemoveTipMutation,
  useReopenComandaMutation,
} from './comandasApi';
import { DiscountModal } from './DiscountModal';
import { useUnitProfessionals } from './hooks';
import { ItemModal } from './ItemModal';
import {
  clubText,
  COMANDAS_PATH,
  commissionLineText,
  commissionRateText,
  comandaFigures,
  hasPendingPix,
  isEditable,
  mayClose,
  mayOperate,
  mayRefund,
  mayReopen,
  methodLabel,
  PAYMENT_METHODS,
  payable,
  paymentDetail,
  PIX_FIGURE,
  PIX_MSG,
  PIX_POLL_MS,
  pixOnHold,
  pixToRefund,
  professionalName,
  statusBadge,
  statusLabel,
  type DeskMethod,
  type PixShown,
} from './model';
import { WALK_IN } from './NewComandaModal';
import { PaymentModal } from './PaymentModal';
import { PixModal } from './PixModal';
import { ReasonModal } from './ReasonModal';
import { TipModal } from './TipModal';
import type { Comanda, ComandaCommission, ComandaItem, ComandaPayment, ComandaTip } from './types';
import './comandas.css';

export const MSG_DONE = {
  itemRemoved: 'Item removido.',
  tipRemoved: 'Gorjeta removida.',
  closed: 'Comanda fechada.',
  reopened: 'Comanda reaberta.',
  canceled: 'Comanda cancelada.',
  refunded: 'Pagamento estornado.',
};

/** What one dialog of the page is about. */
type Dialog =
  | { kind: 'service' | 'product' | 'tip' | 'discount' | 'cancel' | 'reopen' }
  | { kind: 'payment'; method: DeskMethod }
  | { kind: 'pix'; charge: PixShown }
  | { kind: 'removeItem'; item: ComandaItem }
  | { kind: 'removeTip'; tip: ComandaTip }
  | { kind: 'refund'; payment: ComandaPayment };

/** /dashboard/comanda/{idComanda}. */
export default function ComandaPage() {
  const { idComanda = '' } = useParams();
  const id = /^\d+$/.test(idComanda) ? Number(idComanda) : null;
  // Other desks' changes, and the provider's word on a Pix, show as they happen.
  useLiveChanges();
  const { data: comanda, isError } = useGetComandaQuery(id ?? 0, { skip: id === null });
  // Should a live notice be missed, the comanda is read again every 5 s while a Pix waits.
  useGetComandaQuery(id ?? 0, { skip: id === null || !comanda || !hasPendingPix(comanda), pollingInterval: PIX_POLL_MS });
  if (!comanda) {
    return (
      <ComandaFrame title="Comanda">
        <p className="empty">{id === null || isError ? 'Nenhum registro encontrado' : 'Carregando...'}</p>
      </ComandaFrame>
    );
  }
  return <ComandaView comanda={comanda} />;
}

function ComandaFrame({ title, badge, children }: { title: string; badge?: ReactNode; children: ReactNode }) {
  const navigate = useNavigate();
  const back = () => ((window.history.state as { idx?: number } | null)?.idx ? navigate(-1) : navigate(COMANDAS_PATH));
  return (
    <section className="page comanda-page">
      <header className="page-header">
        <button type="button" className="icon-button" aria-label="Voltar" onClick={back}>
          <Icon name="arrowBack" />
        </button>
        <h1 className="page-title">{title}</h1>
        {badge}
      </header>
      {children}
    </section>
  );
}

/** A titled part of the comanda ('Itens', 'Gorjetas', ...), named by its heading. */
function ComandaSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="comanda-section" aria-labelledby={id}>
      <h2 id={id} className="section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** One of the 'Adicionar ...' buttons under a section of a comanda that may still change. */
function AddButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="button button-secondary comanda-touch" onClick={onClick}>
      <Icon name="add" /> {label}
    </button>
  );
}

function ComandaView({ comanda }: { comanda: Comanda }) {
  const role = useAppSelector(selectRoleType);
  const id = comanda.IdComanda;
  const editable = isEditable(role, comanda);
  const operates = mayOperate(role);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const professionals = useUnitProfessionals(comanda.IdCompany);
  const [removeItem] = useRemoveItemMutation();
  const [removeTip] = useRemoveTipMutation();
  const [closeComanda, closing] = useCloseComandaMutation();
  const [reopenComanda] = useReopenComandaMutation();
  const [cancelComanda] = useCancelComandaMutation();
  const [refundPayment] = useRefundPaymentMutation();

  /** Runs a confirmed change; the base query already toasted a failure. */
  const run = async (change: () => Promise<unknown>, done: string) => {
    try {
      await change();
      notifySuccess(done);
    } catch {
      // Shown by the base query.
    }
    close();
  };

  const figures = comandaFigures(comanda);
  const due = comanda.Due;
  // What a new payment may take: a Pix waiting keeps its part.
  const mayPay = payable(comanda);
  const pixWaiting = hasPendingPix(comanda);
  const onHold = pixOnHold(comanda);
  const closeReasonId = useId();
  usePixReceivedNotice(comanda);

  return (
    <ComandaFrame
      title={`Comanda N.º ${id}`}
      badge={<span className={`badge ${statusBadge(comanda.Status)}`}>{statusLabel(comanda.Status)}</span>}
    >
      <ComandaFacts comanda={comanda} />

      {operates && pixToRefund(comanda).length > 0 && (
        <div className="comanda-refund-notice" role="alert">
          {pixToRefund(comanda).map((charge) => (
            <p key={charge.GalaxPayId}>
              <strong>{PIX_MSG.refund(charge.Value)}</strong>
            </p>
          ))}
        </div>
      )}

      <ComandaSection id="comanda-items" title="Itens">
        <div className="table-wrap">
          <table className="table list-table comanda-table" aria-label="Itens">
            <thead>
              <tr>
                <th scope="col">Descrição</th>
                <th scope="col">Profissional</th>
                <th scope="col">Qtd.</th>
                <th scope="col">Valor unitário</th>
                <th scope="col">Desconto</th>
                <th scope="col">Total</th>
                {editable && (
                  <th scope="col" className="table-actions">
                    <span className="visually-hidden">Ações</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {comanda.Items.map((item) => (
                <tr key={item.IdItem}>
                  <td data-label="Descrição">
                    {item.Description}
                    {item.Club && <span className="comanda-line-detail comanda-club">{clubText(item)}</span>}
                  </td>
                  <td data-label="Profissional">{professionalName(professionals.names, item.IdProfessional)}</td>
                  <td data-label="Qtd.">{item.Quantity}</td>
                  <td data-label="Valor unitário">{formatBRL(item.UnitPrice)}</td>
                  <td data-label="Desconto">
                    {item.Discount ? formatBRL(item.Discount) : '-'}
                    {item.DiscountPercent ? ` (${String(item.DiscountPercent).replace('.', ',')}%)` : ''}
                  </td>
                  <td data-label="Total">{formatBRL(item.Total)}</td>
                  {editable && (
                    <td data-label="Ações" className="table-actions">
                      <button
                        type="button"
                        className="icon-button comanda-touch"
                        aria-label={`Remover ${item.Description}`}
                        title="Remover"
                        onClick={() => setDialog({ kind: 'removeItem', item })}
                      >
                        <Icon name="delete" />
                      </button>
                    </td>
                  )}
                </tr>
              ))}
              {comanda.Items.length === 0 && (
                <tr>
                  <td colSpan={editable ? 7 : 6} className="table-empty">
                    Nenhum item
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        {editable && (
          <div className="comanda-buttons">
            <AddButton label="Adicionar serviço" onClick={() => setDialog({ kind: 'service' })} />
            <AddButton label="Adicionar produto" onClick={() => setDialog({ kind: 'product' })} />
          </div>
        )}
      </ComandaSection>

      <ComandaSection id="comanda-tips" title="Gorjetas">
        {comanda.Tips.length === 0 ? (
          <p className="muted">Nenhuma gorjeta</p>
        ) : (
          <ul className="comanda-lines" aria-label="Gorjetas">
            {comanda.Tips.map((tip) => {
              const name = professionalName(professionals.names, tip.IdProfessional);
              return (
                <li key={tip.IdTip} className="comanda-line">
                  <span className="comanda-line-text">{name}</span>
                  <span className="comanda-line-value">{formatBRL(tip.Value)}</span>
                  {editable && (
                    <button
                      type="button"
                      className="icon-button comanda-touch"
                      aria-label={`Remover gorjeta de ${name}`}
                      title="Remover"
                      onClick={() => setDialog({ kind: 'removeTip', tip })}
                    >
                      <Icon name="delete" />
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {editable && (
          <div className="comanda-buttons">
            <AddButton label="Adicionar gorjeta" onClick={() => setDialog({ kind: 'tip' })} />
          </div>
        )}
      </ComandaSection>

      <ComandaSection id="comanda-payments" title="Pagamentos">
        {comanda.Payments.length === 0 && onHold.length === 0 && <p className="muted">Nenhum pagamento</p>}
        {comanda.Payments.length > 0 && (
          <ul className="comanda-lines" aria-label="Pagamentos">
            {comanda.Payments.map((payment) => (
              <li key={payment.IdPayment} className="comanda-line">
                <span className="comanda-line-text">
                  {methodLabel(payment.Method)}
                  {paymentDetail(payment, comanda.Items) && (
                    <span className="comanda-line-detail">{paymentDetail(payment, comanda.Items)}</span>
                  )}
                </span>
                <span className="comanda-line-value">{formatBRL(payment.Value)}</span>
                {mayRefund(role, comanda.Status) && (
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Estorno de ${methodLabel(payment.Method)} ${formatBRL(payment.Value)}`}
                    onClick={() => setDialog({ kind: 'refund', payment })}
                  >
                    Estorno
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {onHold.length > 0 && (
          <ul className="comanda-lines" aria-label="Cobranças Pix">
            {onHold.map((charge) => (
              <li key={charge.GalaxPayId} className={`comanda-line comanda-pix-line-${charge.Status.toLowerCase()}`}>
                <span className="comanda-line-text">
                  Pix
                  <span className="comanda-line-detail">{charge.Status === 'PENDING' ? PIX_MSG.waiting : 'Expirado ou recusado'}</span>
                </span>
                <span className="comanda-line-value">{formatBRL(charge.Value)}</span>
                {charge.Status === 'PENDING' && operates && (
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Mostrar QR Code do Pix de ${formatBRL(charge.Value)}`}
                    onClick={() => setDialog({ kind: 'pix', charge })}
                  >
                    Mostrar QR Code
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {editable && mayPay > 0 && (
          <div className="comanda-methods" role="group" aria-label="Receber">
            {PAYMENT_METHODS.map((method) => (
              <button
                key={method.value}
                type="button"
                className="button button-outline comanda-touch"
                onClick={() => setDialog({ kind: 'payment', method: method.value })}
              >
                {method.label}
              </button>
            ))}
          </div>
        )}
      </ComandaSection>

      <ComandaSection id="comanda-totals" title="Totais">
        <dl className="comanda-totals">
          {figures.map((figure) => (
            <div
              key={figure.label}
              className={`comanda-figure${figure.label === 'Falta pagar' ? ' comanda-figure-due' : ''}${figure.label === PIX_FIGURE ? ' comanda-figure-pix' : ''}`}
            >
              <dt>{figure.label}</dt>
              <dd>
                {figure.label === 'Desconto' && figure.value ? `- ${formatBRL(figure.value)}` : formatBRL(figure.value)}
                {figure.label === 'Desconto' && editable && (
                  <button type="button" className="button button-secondary button-small" onClick={() => setDialog({ kind: 'discount' })}>
                    Alterar desconto
                  </button>
                )}
              </dd>
            </div>
          ))}
        </dl>
        {operates && comanda.Status === 'OPEN' && (
          <div className="comanda-buttons comanda-danger-zone">
            <button type="button" className="button button-secondary" onClick={() => setDialog({ kind: 'cancel' })}>
              Cancelar comanda
            </button>
          </div>
        )}
      </ComandaSection>

      {/* What the close earned: ADMIN sees everyone's, a professional their own (issue 42). */}
      {comanda.Commissions.length > 0 && (
        <ComandaCommissions commissions={comanda.Commissions} items={comanda.Items} professionals={professionals.names} />
      )}

      {/* Who added, discounted, paid, closed and reopened: ADMIN's, like every audit. */}
      {role === 'ADMIN' && <ComandaHistory comanda={comanda} professionals={professionals.names} />}

      {/* Thumb-reach bar: what is left to pay and the next step. */}
      <div className="comanda-bar" role="region" aria-label="Resumo da comanda">
        <p className="comanda-bar-due">
          <span>Falta pagar</span>
          <strong>{formatBRL(due)}</strong>
        </p>
        {operates && comanda.Status === 'OPEN' && (
          <button
            type="button"
            className="button button-primary comanda-touch"
            disabled={!mayClose(comanda) || closing.isLoading}
            aria-describedby={pixWaiting ? closeReasonId : undefined}
            onClick={() => void run(() => closeComanda(id).unwrap(), MSG_DONE.closed)}
          >
            Fechar comanda
          </button>
        )}
        {operates && comanda.Status === 'OPEN' && pixWaiting && (
          <p id={closeReasonId} className="comanda-bar-reason">
            {PIX_MSG.closeBlocked}
          </p>
        )}
        {mayReopen(role, comanda.Status) && (
          <button type="button" className="button button-primary comanda-touch" onClick={() => setDialog({ kind: 'reopen' })}>
            Reabrir
          </button>
        )}
      </div>

      {(dialog?.kind === 'service' || dialog?.kind === 'product') && (
        <ItemModal
          idComanda={id}
          idCompany={comanda.IdCompany}
          kind={dialog.kind}
          readsOffered={role === 'ADMIN'}
          onClose={close}
        />
      )}
      {dialog?.kind === 'tip' && <TipModal idComanda={id} idCompany={comanda.IdCompany} onClose={close} />}
      {dialog?.kind === 'discount' && <DiscountModal comanda={comanda} onClose={close} />}
      {dialog?.kind === 'payment' && (
        <PaymentModal
          idComanda={id}
          due={mayPay}
          method={dialog.method}
          onClose={close}
          onPix={(charge) => setDialog({ kind: 'pix', charge })}
        />
      )}
      {dialog?.kind === 'pix' && <PixModal comanda={comanda} charge={dialog.charge} onClose={close} />}
      <ConfirmDialog
        open={dialog?.kind === 'removeItem' || dialog?.kind === 'removeTip'}
        title="Atencão!"
        confirmLabel="Remover"
        cancelLabel="Voltar"
        onConfirm={() => {
          if (dialog?.kind === 'removeItem') void run(() => removeItem({ id, idItem: dialog.item.IdItem }).unwrap(), MSG_DONE.itemRemoved);
          if (dialog?.kind === 'removeTip') void run(() => removeTip({ id, idTip: dialog.tip.IdTip }).unwrap(), MSG_DONE.tipRemoved);
        }}
        onCancel={close}
      >
        {dialog?.kind === 'removeItem' && <p>Remover {dialog.item.Description} da comanda?</p>}
        {dialog?.kind === 'removeTip' && (
          <p>
            Remover a gorjeta de {professionalName(professionals.names, dialog.tip.IdProfessional)} ({formatBRL(dialog.tip.Value)})?
          </p>
        )}
      </ConfirmDialog>
      {dialog?.kind === 'cancel' && (
        <ReasonModal
          title="Cancelar comanda"
          confirmLabel="Cancelar comanda"
          onSubmit={async (reason) => {
            await cancelComanda({ id, body: { reason } }).unwrap();
            notifySuccess(MSG_DONE.canceled);
            close();
          }}
          onClose={close}
        >
          <p>A comanda N.º {id} será cancelada. Só é possível cancelar sem pagamentos.</p>
        </ReasonModal>
      )}
      {dialog?.kind === 'reopen' && (
        <ReasonModal
          title="Reabrir comanda"
          confirmLabel="Reabrir"
          onSubmit={async (reason) => {
            await reopenComanda({ id, body: { reason } }).unwrap();
            notifySuccess(MSG_DONE.reopened);
            close();
          }}
          onClose={close}
        >
          <p>A comanda N.º {id} volta a ficar aberta; o histórico guarda o motivo.</p>
        </ReasonModal>
      )}
      {dialog?.kind === 'refund' && (
        <ReasonModal
          title="Estorno"
          confirmLabel="Estornar"
          onSubmit={async (reason) => {
            await refundPayment({ id, idPayment: dialog.payment.IdPayment, body: { reason } }).unwrap();
            notifySuccess(MSG_DONE.refunded);
            close();
          }}
          onClose={close}
        >
          <p>
            Estornar o pagamento em {methodLabel(dialog.payment.Method)} de {formatBRL(dialog.payment.Value)}?
          </p>
        </ReasonModal>
      )}
    </ComandaFrame>
  );
}

/** 'Pix recebido' when a Pix the screen saw waiting is paid, whether its panel is open or not. */
function usePixReceivedNotice(comanda: Comanda) {
  const seen = useRef<Map<number, string> | null>(null);
  useEffect(() => {
    const before = seen.current;
    if (before && comanda.PixCharges.some((charge) => charge.Status === 'PAID' && before.get(charge.GalaxPayId) === 'PENDING')) {
      notifySuccess(PIX_MSG.paid);
    }
    seen.current = new Map(comanda.PixCharges.map((charge) => [charge.GalaxPayId, charge.Status]));
  }, [comanda.PixCharges]);
}

/** 'Comissões': per professional, the commission and the tips, then each line with the rate in force at the close. */
function ComandaCommissions({
  commissions,
  items,
  professionals,
}: {
  commissions: ComandaCommission[];
  items: ComandaItem[];
  professionals: Map<number, string>;
}) {
  return (
    <ComandaSection id="comanda-commissions" title="Comissões">
      <ul className="comanda-commissions" aria-label="Comissões por profissional">
        {commissions.map((earning) => {
          const name = professionalName(professionals, earning.IdProfessional);
          return (
            <li key={earning.IdProfessional} className="comanda-commission">
              <p className="comanda-commission-name">{name}</p>
              <dl className="comanda-commission-figures">
                <div>
                  <dt>Comissão</dt>
                  <dd>{formatBRL(earning.Commission)}</dd>
                </div>
                <div>
                  <dt>Gorjetas</dt>
                  <dd>{formatBRL(earning.Tips)}</dd>
                </div>
              </dl>
              {earning.Lines.length > 0 && (
                <ul className="comanda-lines" aria-label={`Comissão de ${name}`}>
                  {earning.Lines.map((line) => (
                    <li key={line.IdItem} className="comanda-line">
                      <span className="comanda-line-text">
                        {commissionLineText(items, line)}
                        <span className="comanda-line-detail">{commissionRateText(line)}</span>
                      </span>
                      <span className="comanda-line-value">{formatBRL(line.Commission)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </ComandaSection>
  );
}

/** 'Histórico': every event of the comanda, with the unit's professionals and the client named. */
function ComandaHistory({ comanda, professionals }: { comanda: Comanda; professionals: Map<number, string> }) {
  const { data: client } = useGetClientQuery(comanda.IdUser ?? 0, { skip: !comanda.IdUser });
  const names = useMemo(
    () => ({
      professionals: Object.fromEntries(professionals),
      clients: client ? { [client.IdUser]: client.Name } : {},
    }),
    [professionals, client],
  );
  const label = `Histórico da comanda N.º ${comanda.IdComanda}`;
  return (
    <ComandaSection id="comanda-history" title="Histórico">
      <HistoryList target={{ subject: 'comanda', id: comanda.IdComanda }} label={label} names={names} />
    </ComandaSection>
  );
}

/** Unit, client ('Cliente avulso' when none) and the appointment it serves, if any. */
function ComandaFacts({ comanda }: { comanda: Comanda }) {
  const dispatch = useAppDispatch();
  const { data: units } = useGetCompaniesQuery();
  const { data: client } = useGetClientQuery(comanda.IdUser ?? 0, { skip: !comanda.IdUser });
  const { data: appointment } = useGetSchedulingQuery(comanda.IdScheduling ?? 0, { skip: !comanda.IdScheduling });
  const unit = units?.find((u) => u.IdCompany === comanda.IdCompany)?.Name ?? `Unidade ${comanda.IdCompany}`;
  const clientName = !comanda.IdUser ? WALK_IN : (client?.Name ?? appointment?.UserName ?? `Cliente N.º ${comanda.IdUser}`);
  return (
    <dl className="comanda-facts">
      <div>
        <dt>Unidade</dt>
        <dd>{unit}</dd>
      </div>
      <div>
        <dt>Cliente</dt>
        <dd>{clientName}</dd>
      </div>
      {comanda.IdScheduling && (
        <div>
          <dt>Agendamento</dt>
          <dd>
            <Link
              to="/dashboard/scheduling"
              onClick={() => {
                // The agenda opens on the appointment's unit and day.
                dispatch(companySelected(comanda.IdCompany));
                if (appointment) dispatch(agendaSlice.actions.dayChosen(appointment.Date.slice(0, 10)));
              }}
            >
              N.º {comanda.IdScheduling}
              {appointment && ` · ${formatDateBR(appointment.Date)} ${shortTime(appointment.StartTime)}`}
            </Link>
          </dd>
        </div>
      )}
    </dl>
  );
}
