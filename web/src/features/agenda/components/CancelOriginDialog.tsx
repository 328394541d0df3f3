import { useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ToggleGroup } from '@/components/ToggleGroup';
import { notifySuccess } from '@/lib/notify';
import { useCancelOnlineOriginMutation, type OnlineOrigin } from '../api/agendaApi';
import type { DayItem } from '../model/types';

// Issue 39: the front desk's answer to a flood of online bookings. From one online booking,
// every future online booking of the same e-mail, mobile or connection in the user's units
// is cancelled, each one recorded with the reason and its client e-mailed.

export const CANCEL_ORIGIN_TITLE = 'Cancelar agendamentos online';
export const ORIGIN_OPTIONS: { value: OnlineOrigin; label: string; text: string }[] = [
  { value: 'EMAIL', label: 'Mesmo e-mail', text: 'feitos com o mesmo e-mail deste cliente' },
  { value: 'PHONE', label: 'Mesmo celular', text: 'feitos com o mesmo celular deste cliente' },
  { value: 'ADDRESS', label: 'Mesma conexão', text: 'feitos da mesma conexão de internet que este' },
];

/** The toast after a sweep. */
export const sweptMessage = (count: number) =>
  count === 0
    ? 'Nenhum agendamento online futuro encontrado.'
    : count === 1
      ? '1 agendamento online cancelado.'
      : `${count} agendamentos online cancelados.`;

export function CancelOriginDialog({ item, onClose }: { item: DayItem; onClose: () => void }) {
  const [by, setBy] = useState<OnlineOrigin>('EMAIL');
  const [cancelOnlineOrigin, { isLoading }] = useCancelOnlineOriginMutation();
  const chosen = ORIGIN_OPTIONS.find((option) => option.value === by) ?? ORIGIN_OPTIONS[0];

  const sweep = async () => {
    if (isLoading) return;
    try {
      const { Cancelled } = await cancelOnlineOrigin({ id: item.IdScheduling, by }).unwrap();
      notifySuccess(sweptMessage(Cancelled));
      onClose();
    } catch {
      // The base query showed the server's message.
    }
  };

  return (
    <ConfirmDialog open title={CANCEL_ORIGIN_TITLE} confirmLabel="Cancelar agendamentos" cancelLabel="Voltar" onConfirm={sweep} onCancel={onClose}>
      <p>
        A partir do agendamento N.º {item.IdScheduling} ({item.UserName}), cancela todos os agendamentos online futuros das suas
        unidades {chosen.text}.
      </p>
      <ToggleGroup label="Origem" options={ORIGIN_OPTIONS} value={by} onChange={setBy} />
      <p className="dialog-detail">Cada cliente recebe um e-mail avisando do cancelamento, e o histórico registra o motivo.</p>
    </ConfirmDialog>
  );
}
