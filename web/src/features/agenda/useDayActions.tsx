import { useCallback, useState, type ReactNode } from 'react';
import { useAppDispatch } from '@/app/store';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { shortTime } from '@/lib/dates';
import { notifySuccess } from '@/lib/notify';
import { useCancelSchedulingMutation, useConfirmSchedulingMutation } from './agendaApi';
import { modalOpened } from './agendaSlice';
import type { CardActions } from './AppointmentCard';
import type { DayItem } from './types';

export const deletedMessage = (id: number) => `Agendamento N.º ${id} excluído com sucesso!`;
/** Spec 01: "one screen shows 'Agendamento excluído com sucesso!'": the mobile list, whose cards are short. */
export const MOBILE_DELETED_MESSAGE = 'Agendamento excluído com sucesso!';
export const confirmedMessage = (id: number) => `Agendamento N.º ${id} confirmado com sucesso!`;
export const NOT_WHATSAPP_TITLE = 'Número não é WhatsApp';
export const NOT_WHATSAPP_TEXT = 'O telefone escolhido não foi cadastrado pelo usuário como WhatsApp.';

/**
 * The card options and the two dialogs they may open (delete, not-WhatsApp). `deleted` is
 * the toast after a cancellation.
 */
export function useDayActions(deleted: (id: number) => string = deletedMessage): {
  actions: CardActions;
  dialogs: ReactNode;
} {
  const dispatch = useAppDispatch();
  const [cancelScheduling] = useCancelSchedulingMutation();
  const [confirmScheduling] = useConfirmSchedulingMutation();
  const [deleting, setDeleting] = useState<DayItem | null>(null);
  const [whatsLink, setWhatsLink] = useState<string | null>(null);

  const actions: CardActions = {
    onEdit: (item) => dispatch(modalOpened(item.IdScheduling)),
    onCancel: setDeleting,
    onConfirm: async (item) => {
      try {
        await confirmScheduling(item.IdScheduling).unwrap();
        notifySuccess(confirmedMessage(item.IdScheduling));
      } catch {
        // The base query already told the user.
      }
    },
    onNotWhatsApp: setWhatsLink,
  };

  const closeDelete = useCallback(() => setDeleting(null), []);
  const closeWhats = useCallback(() => setWhatsLink(null), []);

  const remove = async () => {
    const item = deleting;
    setDeleting(null);
    if (!item) return;
    try {
      await cancelScheduling(item.IdScheduling).unwrap();
      notifySuccess(deleted(item.IdScheduling));
    } catch {
      // The base query already told the user; the optimistic change was undone.
    }
  };

  const dialogs = (
    <>
      <ConfirmDialog
        open={deleting !== null}
        title="Atencão!"
        confirmLabel="Excluir"
        cancelLabel="Cancelar"
        onConfirm={remove}
        onCancel={closeDelete}
      >
        <p>Deseja realmente excluir o agendamento?</p>
        {deleting && (
          <p className="dialog-detail">
            N.º {deleting.IdScheduling} - {deleting.UserName} - {shortTime(deleting.StartTime)}
          </p>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={whatsLink !== null}
        title={NOT_WHATSAPP_TITLE}
        confirmLabel="Enviar mesmo assim"
        cancelLabel="Cancelar"
        onConfirm={() => {
          if (whatsLink) window.open(whatsLink, '_blank', 'noopener');
          setWhatsLink(null);
        }}
        onCancel={closeWhats}
      >
        <p>{NOT_WHATSAPP_TEXT}</p>
      </ConfirmDialog>
    </>
  );

  return { actions, dialogs };
}
