import { todayIso } from '@/lib/dates';
import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect, useMemo, useReducer, useState } from 'react';
import { TextAreaField } from '@/components/TextField';
import { Tooltip } from '@/components/Tooltip';
import { notifySuccess } from '@/lib/notify';
import { useAppSelector } from '@/state/hooks';
import { selectUnitTimeZone } from '@/state/sessionSlice';
import { useBookSchedulingMutation, useGetAvailableTimesQuery, useGetUnitServicesQuery } from '../api/agendaApi';
import { CONFIRM_TOOLTIP, bookedMessage } from './AppointmentModal';
import { ClientSearchModal } from './ClientSearchModal';
import { NoShowBadge } from './NoShowBadge';
import { useIdempotencyKey } from '@/lib/idempotency';
import { ServicePicker } from './ServicePicker';
import { availableDates, initialDate } from './TimePicker';
import { WizardTimeStep } from './WizardTimeStep';
import { canConfirm, initialWizardState, wizard, wizardSlice, type WizardState } from '../model/wizardSlice';
import { useWriteQuestions } from '../hooks/useWriteQuestions';
import { useSeries } from '../hooks/useSeries';
import { bookSeriesLabel, wizardPayload } from '../model/series';

interface MobileNewAppointmentProps {
  idCompany: number | null;
  /** The day the agenda shows ('YYYY-MM-DD'), which the flow starts on. */
  agendaDay: string;
  /** Leaves the flow; with the booked day after a booking. */
  onDone: (bookedDate?: string) => void;
}

/** The mobile 'Novo agendamento' flow: services, professional (optional), free time, notes, then the client. */
export function MobileNewAppointment({ idCompany, agendaDay, onDone }: MobileNewAppointmentProps) {
  const timeZone = useAppSelector(selectUnitTimeZone);
  const [state, dispatch] = useReducer(
    wizardSlice.reducer,
    undefined,
    (): WizardState => ({ ...initialWizardState, idCompany }),
  );
  const [searching, setSearching] = useState(false);

  // The branch chosen in the top bar is the flow's unit.
  useEffect(() => {
    if (idCompany) dispatch(wizard.companyChanged(idCompany));
  }, [idCompany]);

  const services = useGetUnitServicesQuery(state.idCompany ?? skipToken);
  // The mobile flow omits timesType (the server reads it as ONLY_AVAILABLES).
  const timesQuery = useGetAvailableTimesQuery(
    state.idCompany && state.serviceIds.length
      ? { idCompany: state.idCompany, idServices: [...state.serviceIds].sort((a, b) => a - b) }
      : skipToken,
  );
  const answer = timesQuery.isError ? undefined : timesQuery.currentData;
  // 'Sem preferência' (null) offers everyone's free times, as the desktop wizard does.
  const dates = useMemo(() => availableDates(answer?.times, state.idProfessional), [answer, state.idProfessional]);

  // Read again when another desk books (live changes): a chosen time they took is cleared.
  useEffect(() => {
    if (answer) dispatch(wizard.freeTimesRead(answer.times));
  }, [answer]);

  useEffect(() => {
    if (state.date) return;
    const first = initialDate(agendaDay, dates, todayIso(Date.now(), timeZone));
    if (first) dispatch(wizard.dateDefaulted(first));
  }, [state.date, dates, agendaDay, timeZone]);

  const [book, booking] = useBookSchedulingMutation();
  // A retried request is not a second appointment.
  const withKey = useIdempotencyKey();
  const questions = useWriteQuestions();

  /** The professional of the chosen time in the unit. */
  const membership = answer?.professionals.find((p) => p.idProfessional === state.hour?.idProfessional);
  // The mobile flow omits timesType (the server reads it as ONLY_AVAILABLES).
  const form = wizardPayload(state, membership?.idCompanyProfessional, false);
  // 'Repetir' (issue 45).
  const series = useSeries({
    form,
    idProfessional: state.hour?.idProfessional ?? null,
    idCompany: state.idCompany,
    answer,
    today: todayIso(Date.now(), timeZone),
  });

  const confirm = async () => {
    if (series.on) {
      const first = await series.book();
      if (!first) return;
      dispatch(wizard.submitted());
      onDone(first);
      return;
    }
    if (!canConfirm(state) || !state.hour || !state.date || !form) return;
    const hour = state.hour;
    const date = state.date;
    const payload = form;
    const saved = await questions.send((extra) =>
      withKey((idempotencyKey) => book({ payload: { ...payload, ...extra }, idempotencyKey }).unwrap()),
    );
    // Not saved: the message was shown, or the user chose not to book the client twice.
    if (!saved) return;
    notifySuccess(bookedMessage(date, hour.start));
    dispatch(wizard.submitted());
    onDone(date);
  };

  return (
    <section className="mobile-new" aria-labelledby="mobile-new-title">
      <h2 id="mobile-new-title" className="section-title">
        Novo agendamento
      </h2>
      <ServicePicker services={services.data} chosen={state.serviceIds} onToggle={(id) => dispatch(wizard.serviceToggled(id))} />
      <WizardTimeStep
        compact
        state={state}
        dispatch={dispatch}
        answer={answer}
        dates={dates}
        loading={timesQuery.isFetching}
        series={series}
      />
      <TextAreaField
        label="Observações"
        value={state.observation}
        onChange={(text) => dispatch(wizard.observationChanged(text))}
      />
      <section className="client-panel" aria-labelledby="client-panel-title">
        <h3 id="client-panel-title">Cliente</h3>
        <p>
          {state.client ? (
            <>
              <strong>{state.client.Name}</strong>
              <NoShowBadge client={state.client} />
            </>
          ) : (
            <span className="muted">Nenhum cliente selecionado</span>
          )}
        </p>
        <button type="button" className="button button-secondary" onClick={() => setSearching(true)}>
          Selecionar cliente
        </button>
      </section>
      <div className="mobile-new-actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            dispatch(wizard.servicesCleared());
            onDone();
          }}
        >
          Voltar
        </button>
        {series.on ? (
          <Tooltip text={canConfirm(state) ? series.blocked : CONFIRM_TOOLTIP}>
            <button
              type="button"
              className="button button-primary"
              disabled={!canConfirm(state) || series.blocked !== null || series.booking}
              onClick={confirm}
            >
              {bookSeriesLabel(series.count)}
            </button>
          </Tooltip>
        ) : (
          <Tooltip text={canConfirm(state) ? null : CONFIRM_TOOLTIP}>
            <button
              type="button"
              className="button button-primary"
              disabled={!canConfirm(state) || booking.isLoading}
              onClick={confirm}
            >
              Confirmar
            </button>
          </Tooltip>
        )}
      </div>
      <ClientSearchModal
        open={searching}
        selected={state.client?.IdUser ?? null}
        onSelect={(client) => dispatch(wizard.clientChosen(client))}
        onClose={() => setSearching(false)}
      />
      {questions.dialogs}
    </section>
  );
}
