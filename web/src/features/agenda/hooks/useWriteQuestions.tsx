import { useCallback, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { staffApi } from '@/components/staff/staffApi';
import { notifyError, notifySuccess } from '@/lib/notify';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import { selectRoleType } from '@/state/sessionSlice';
import {
  BOOK_ANYWAY,
  CLIENT_OVERLAP_TITLE,
  PRICE_TITLE,
  clientOverlapMessage,
  keepPriceLabel,
  mayOverlapClient,
  mayReadPrices,
  priceChange,
  priceChangeMessage,
  repriceLabel,
  writeFailureMessage,
  type PriceAnswer,
  type PriceChange,
} from '../model/promises';
import { seriesChangedMessage, type SeriesChange, type SeriesScope } from '../model/series';
import type { PromiseFlags, SchedulingDetail, SeriesAnswer, SeriesChanged } from '../model/types';
import { useChangeSeriesMutation } from '../api/agendaApi';
import { SeriesChangeDialog } from '../components/SeriesScopeChoice';

/** A question on screen until answered: `ask` resolves with the answer. */
function useQuestion<Q, A>() {
  const [pending, setPending] = useState<{ question: Q; answer: (answer: A) => void } | null>(null);
  const ask = useCallback(
    (question: Q) =>
      new Promise<A>((resolve) => {
        setPending({
          question,
          answer: (answer) => {
            setPending(null);
            resolve(answer);
          },
        });
      }),
    [],
  );
  return { ask, pending };
}

/** 'O valor muda de R$ 45,00 para R$ 55,00.': keep the booked prices, use the new ones, or cancel. */
export function PriceChoiceDialog({ change, onAnswer }: { change: PriceChange; onAnswer: (answer: PriceAnswer) => void }) {
  return (
    <ConfirmDialog
      open
      title={PRICE_TITLE}
      confirmLabel={keepPriceLabel(change)}
      alternative={{ label: repriceLabel(change), onChoose: () => onAnswer('reprice') }}
      onConfirm={() => onAnswer('keep')}
      onCancel={() => onAnswer(null)}
    >
      <p>{priceChangeMessage(change)}</p>
    </ConfirmDialog>
  );
}

/** The server's 'Este cliente já tem outro agendamento neste horário.', with 'Agendar mesmo assim'. */
export function ClientOverlapDialog({ message, onAnswer }: { message: string; onAnswer: (anyway: boolean) => void }) {
  return (
    <ConfirmDialog
      open
      title={CLIENT_OVERLAP_TITLE}
      confirmLabel={BOOK_ANYWAY}
      onConfirm={() => onAnswer(true)}
      onCancel={() => onAnswer(false)}
    >
      <p>{message}</p>
    </ConfirmDialog>
  );
}

/**
 * The questions of an agenda write (issue 45): which of a series' appointments a change takes,
 * which price a move to another professional keeps, and whether to book a client who already
 * has an appointment then. The booking endpoints are quiet, so `send` and `sendSeries` show
 * their failures themselves, each once. `dialogs` goes into the screen (over its modal, if any).
 */
export function useWriteQuestions() {
  const dispatch = useAppDispatch();
  const role = useAppSelector(selectRoleType);
  const { ask: askPriceChange, pending: pricePending } = useQuestion<PriceChange, PriceAnswer>();
  const { ask: askOverlap, pending: overlapPending } = useQuestion<string, boolean>();
  const { ask: askSeries, pending: seriesPending } = useQuestion<SeriesAnswer, SeriesScope | null>();
  const [changeSeries, seriesChange] = useChangeSeriesMutation();

  /**
   * 'Alterar série', for an appointment of a series (asked first, before the price): 'ONE'
   * without asking when it has none; null when the user cancelled.
   */
  const askSeriesScope = useCallback(
    async (series: SeriesAnswer | null | undefined): Promise<SeriesScope | null> => (series ? askSeries(series) : 'ONE'),
    [askSeries],
  );

  /**
   * Sends 'Este e os seguintes' or 'Todos' of a change, and says how many were changed. There
   * is no 'Agendar mesmo assim' for a series: every refusal (an occurrence that would not be
   * free, the client's other appointment, a past one) is the server's message as a toast, and
   * nothing was changed. Resolves with the answer, or null.
   */
  const sendSeries = useCallback(
    async (change: SeriesChange): Promise<SeriesChanged | null> => {
      try {
        const changed = await changeSeries(change).unwrap();
        notifySuccess(seriesChangedMessage(changed.IdsScheduling.length));
        return changed;
      } catch (error) {
        const message = writeFailureMessage(error);
        if (message) notifyError(message);
        return null;
      }
    },
    [changeSeries],
  );

  /**
   * For an appointment going to `idProfessional` with `idServices`: `{}` to send as it is
   * (same professional, equal totals, or prices this role cannot read: the booked ones stay),
   * `{ reprice: true }` for the new professional's prices, null when the user cancelled.
   */
  const askPrice = useCallback(
    async (detail: SchedulingDetail, idProfessional: number, idServices: number[]): Promise<PromiseFlags | null> => {
      if (detail.CompanyProfessional.Professional.IdProfessional === idProfessional || !mayReadPrices(role)) return {};
      let offered;
      try {
        offered = await dispatch(
          staffApi.endpoints.getOfferedServices.initiate({ kind: 'professional', idProfessional }, { subscribe: false }),
        ).unwrap();
      } catch {
        // Unread (the base query said why): the server keeps the booked prices.
        return {};
      }
      const change = priceChange(detail.SchedulingServices, offered, idServices);
      if (!change) return {};
      const answer = await askPriceChange(change);
      if (answer === null) return null;
      return answer === 'reprice' ? { reprice: true } : {};
    },
    [dispatch, role, askPriceChange],
  );

  /**
   * Sends a write (`extra` goes into its body). A refusal for the client's other appointment
   * asks ADMIN and ATTENDANT 'Agendar mesmo assim' and sends it again with
   * `allowClientOverlap`; other roles, and every other failure, get the server's message as a
   * toast. Resolves with the answer, or null when nothing was saved.
   */
  const send = useCallback(
    async <T,>(write: (extra: PromiseFlags) => Promise<T>): Promise<T | null> => {
      const shown = (error: unknown) => {
        const message = writeFailureMessage(error);
        if (message) notifyError(message);
        return null;
      };
      try {
        return await write({});
      } catch (error) {
        const message = clientOverlapMessage(error);
        if (!message || !mayOverlapClient(role)) return shown(error);
        if (!(await askOverlap(message))) return null;
        try {
          return await write({ allowClientOverlap: true });
        } catch (again) {
          return shown(again);
        }
      }
    },
    [role, askOverlap],
  );

  const dialogs: ReactNode = (
    <>
      {seriesPending && <SeriesChangeDialog series={seriesPending.question} onAnswer={seriesPending.answer} />}
      {pricePending && <PriceChoiceDialog change={pricePending.question} onAnswer={pricePending.answer} />}
      {overlapPending && <ClientOverlapDialog message={overlapPending.question} onAnswer={overlapPending.answer} />}
    </>
  );
  return { askSeriesScope, askPrice, send, sendSeries, sendingSeries: seriesChange.isLoading, dialogs };
}
