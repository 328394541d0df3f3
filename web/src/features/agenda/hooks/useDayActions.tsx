import { skipToken } from '@reduxjs/toolkit/query';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Modal } from '@/components/Modal';
import { HistoryList } from '@/features/history/HistoryList';
import { formatDateBR, shortTime } from '@/lib/dates';
import { useIdempotencyKey } from '@/lib/idempotency';
import { notifySuccess } from '@/lib/notify';
import { selectRoleType, selectSelectedCompany } from '@/state/sessionSlice';
import {
  useCancelSchedulingMutation,
  useCancelSeriesMutation,
  useConfirmSchedulingMutation,
  useGetUnitProfessionalsQuery,
  useMarkArrivalMutation,
  useMarkNoShowMutation,
  useOpenAppointmentComandaMutation,
  useUndoNoShowMutation,
} from '../api/agendaApi';
import { CancelOriginDialog } from '../components/CancelOriginDialog';
import { modalOpened } from '../model/agendaSlice';
import { comandaPath, mayMarkAttendance, type AttendanceAction } from '../model/attendance';
import type { CardActions } from '../components/AppointmentCard';
import { SeriesScopeChoice } from '../components/SeriesScopeChoice';
import {
  SERIES_SCOPE_LEGEND,
  scopeParam,
  seriesBadgeText,
  seriesCancelledMessage,
  seriesRepeatText,
  type SeriesScope,
} from '../model/series';
import type { DayItem } from '../model/types';

export const deletedMessage = (id: number) => `Agendamento N.º ${id} excluído com sucesso!`;
/** Spec 01: "one screen shows 'Agendamento excluído com sucesso!'": the mobile list, whose cards are short. */
export const MOBILE_DELETED_MESSAGE = 'Agendamento excluído com sucesso!';
export const confirmedMessage = (id: number) => `Agendamento N.º ${id} confirmado com sucesso!`;
export const NOT_WHATSAPP_TITLE = 'Número não é WhatsApp';
export const NOT_WHATSAPP_TEXT = 'O telefone escolhido não foi cadastrado pelo usuário como WhatsApp.';
export const historyTitle = (id: number) => `Histórico do agendamento N.º ${id}`;
// Issue 41: the appointment's attendance and its comanda.
export const arrivedMessage = (id: number) => `Chegada do cliente registrada no agendamento N.º ${id}.`;
export const noShowMessage = (id: number) => `Agendamento N.º ${id} marcado como 'Não compareceu'.`;
export const noShowUndoneMessage = (id: number) => `'Não compareceu' desfeito no agendamento N.º ${id}.`;
export const COMANDA_OPENED = 'Comanda aberta.';

/**
 * The card options and the dialogs they may open (delete, not-WhatsApp and, for ADMIN, the
 * appointment's history). `idCompany` is the unit shown (where an appointment's comanda
 * opens); `deleted` is the toast after a cancellation.
 */
export function useDayActions(
  idCompany: number | null,
  deleted: (id: number) => string = deletedMessage,
): {
  actions: CardActions;
  dialogs: ReactNode;
} {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [cancelScheduling] = useCancelSchedulingMutation();
  const [cancelSeries] = useCancelSeriesMutation();
  const [confirmScheduling] = useConfirmSchedulingMutation();
  const [markArrival] = useMarkArrivalMutation();
  const [markNoShow] = useMarkNoShowMutation();
  const [undoNoShow] = useUndoNoShowMutation();
  const [openComanda] = useOpenAppointmentComandaMutation();
  const withKey = useIdempotencyKey();
  const [deleting, setDeleting] = useState<DayItem | null>(null);
  /** Of a series' appointment (issue 45): which of the series to cancel. */
  const [scope, setScope] = useState<SeriesScope>('ONE');
  const [whatsLink, setWhatsLink] = useState<string | null>(null);
  const [historyOf, setHistoryOf] = useState<DayItem | null>(null);
  const [sweeping, setSweeping] = useState<DayItem | null>(null);
  const role = useAppSelector(selectRoleType);
  // The audit is ADMIN's (the server answers 403 to everyone else).
  const isAdmin = role === 'ADMIN';

  /** One attendance action; a refusal (422, or the 409 naming the comanda) was toasted by the base query. */
  const attend = async (item: DayItem, action: AttendanceAction) => {
    const id = item.IdScheduling;
    try {
      switch (action) {
        case 'arrival':
          await markArrival(id).unwrap();
          notifySuccess(arrivedMessage(id));
          break;
        case 'noShow':
          await markNoShow(id).unwrap();
          notifySuccess(noShowMessage(id));
          break;
        case 'undoNoShow':
          await undoNoShow(id).unwrap();
          notifySuccess(noShowUndoneMessage(id));
          break;
        case 'openComanda': {
          if (idCompany === null) return;
          const payload = { idCompany, idScheduling: id };
          const { IdComanda } = await withKey(
            (idempotencyKey) => openComanda({ payload, idempotencyKey }).unwrap(),
            JSON.stringify(payload),
          );
          notifySuccess(COMANDA_OPENED);
          navigate(comandaPath(IdComanda));
          break;
        }
        case 'viewComanda':
          if (item.IdComanda) navigate(comandaPath(item.IdComanda));
          break;
      }
    } catch {
      // The base query already told the user; an optimistic change was undone.
    }
  };

  const actions: CardActions = {
    onEdit: (item) => dispatch(modalOpened(item.IdScheduling, item.Series)),
    onCancel: (item) => {
      setScope('ONE');
      setDeleting(item);
    },
    onConfirm: async (item) => {
      try {
        await confirmScheduling(item.IdScheduling).unwrap();
        notifySuccess(confirmedMessage(item.IdScheduling));
      } catch {
        // The base query already told the user.
      }
    },
    onNotWhatsApp: setWhatsLink,
    onHistory: isAdmin ? setHistoryOf : undefined,
    // The front desk's answer to a flood of online bookings (the server's rule too).
    onCancelOrigin: isAdmin || role === 'ATTENDANT' ? setSweeping : undefined,
    // The front desk's (the server answers 403 to the barbers).
    onAttendance: mayMarkAttendance(role) ? (item, action) => void attend(item, action) : undefined,
  };

  const closeDelete = useCallback(() => setDeleting(null), []);
  const closeWhats = useCallback(() => setWhatsLink(null), []);
  const closeHistory = useCallback(() => setHistoryOf(null), []);
  const closeSweep = useCallback(() => setSweeping(null), []);

  const remove = async () => {
    const item = deleting;
    setDeleting(null);
    if (!item) return;
    try {
      if (item.Series && scope !== 'ONE') {
        const { IdsScheduling } = await cancelSeries({ id: item.IdScheduling, scope: scopeParam(scope) }).unwrap();
        notifySuccess(seriesCancelledMessage(IdsScheduling.length));
        return;
      }
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
        {deleting?.Series && (
          <SeriesScopeChoice
            legend={`${SERIES_SCOPE_LEGEND} (${seriesBadgeText(deleting.Series)}, ${seriesRepeatText(deleting.Series.EveryWeeks).toLowerCase()})`}
            value={scope}
            onChange={setScope}
          />
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
      {historyOf && <AppointmentHistoryDialog item={historyOf} onClose={closeHistory} />}
      {sweeping && <CancelOriginDialog item={sweeping} onClose={closeSweep} />}
    </>
  );

  return { actions, dialogs };
}

/** 'Histórico' of a card: who booked, moved, confirmed or cancelled the appointment, and what changed. */
function AppointmentHistoryDialog({ item, onClose }: { item: DayItem; onClose: () => void }) {
  const company = useAppSelector(selectSelectedCompany);
  // The unit's professionals name a move between them (the agenda has read them already).
  const professionals = useGetUnitProfessionalsQuery(company?.IdCompany ?? skipToken);
  const names = useMemo(
    () => ({
      professionals: {
        ...Object.fromEntries((professionals.data ?? []).map((p) => [p.IdProfessional, p.Name])),
        [item.IdProfessional]: item.ProfessionalName,
      },
      clients: { [item.IdUser]: item.UserName },
    }),
    [professionals.data, item],
  );
  return (
    <Modal open title={historyTitle(item.IdScheduling)} onClose={onClose} className="history-modal">
      <p className="history-modal-subtitle">
        {item.UserName} · {formatDateBR(item.Date)} · {shortTime(item.StartTime)} - {shortTime(item.EndTime)} ·{' '}
        {item.ProfessionalName}
      </p>
      <HistoryList
        target={{ subject: 'appointment', id: item.IdScheduling }}
        label={historyTitle(item.IdScheduling)}
        names={names}
      />
    </Modal>
  );
}
