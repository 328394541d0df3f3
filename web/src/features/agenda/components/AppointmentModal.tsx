import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect, useMemo, useReducer, useRef } from 'react';
import { Modal } from '@/components/Modal';
import { SearchableSelect } from '@/components/SearchableSelect';
import { TextAreaField } from '@/components/TextField';
import { Tooltip } from '@/components/Tooltip';
import { addDays, formatDateBR, shortTime, todayIso } from '@/lib/dates';
import { notifySuccess } from '@/lib/notify';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import type { Company } from '@/state/sessionSlice';
import { dayChosen, modalClosed, selectAgenda, type AgendaSlot } from '../model/agendaSlice';
import type { AgendaScope } from '../hooks/hooks';
import { useWriteQuestions } from '../hooks/useWriteQuestions';
import { useSeries } from '../hooks/useSeries';
import { FREE_TIMES_DAYS, bookSeriesLabel, wizardPayload } from '../model/series';
import {
  useBookSchedulingMutation,
  useChangeSchedulingMutation,
  useGetAvailableTimesQuery,
  useGetSchedulingQuery,
  useGetUnitServicesQuery,
} from '../api/agendaApi';
import { ClientSearch } from './ClientSearch';
import { NoShowBadge } from './NoShowBadge';
import { useIdempotencyKey } from '@/lib/idempotency';
import { ServicePicker } from './ServicePicker';
import { availableDates, initialDate } from './TimePicker';
import { WizardTimeStep } from './WizardTimeStep';
import type { AvailableTimes, FreeHour, SeriesAnswer } from '../model/types';
import {
  PREFILL_STAGGER_MS,
  canConfirm,
  canLeaveClientStep,
  initialWizardState,
  wizard,
  wizardSlice,
  type WizardState,
  type WizardStep,
} from '../model/wizardSlice';

export const BOOKED_MESSAGE = 'Agendamento realizado com sucesso!';
/** The success toast of a booking: the specification's text, then when it is (issue 14). */
export const bookedMessage = (date: string, start: string) => `${BOOKED_MESSAGE} ${formatDateBR(date)} às ${start}.`;
export const CHOOSE_CLIENT_TOOLTIP = 'Escolha o cliente';
export const CHOOSE_SERVICE_TOOLTIP = 'Escolha pelo menos um serviço';
export const NO_DATES_TOOLTIP = 'Nenhum horário disponível nos próximos 30 dias.';
export const CONFIRM_TOOLTIP = 'Escolha corretamente os serviços, a data, o horário e o cliente.';

/** The free time that starts at a clicked slot, for its professional on its day. */
export function slotHour(times: AvailableTimes['times'] | undefined, slot: AgendaSlot): FreeHour | null {
  const day = times?.find((entry) => entry.shortDate === slot.date);
  return day?.freeHours.find((hour) => hour.idProfessional === slot.idProfessional && hour.start === slot.start) ?? null;
}

/** How many days free times cover: today and the next 29 (docs/agenda.md). */
export { FREE_TIMES_DAYS };

/**
 * Whether the services fit at a clicked slot: its free time, 'UNFIT' when the free times (which
 * cover its day) do not start there for its professional, or null for a day they do not cover.
 */
export function slotFit(times: AvailableTimes['times'] | undefined, slot: AgendaSlot, today: string): FreeHour | 'UNFIT' | null {
  const hour = slotHour(times, slot);
  if (hour) return hour;
  return slot.date >= today && slot.date < addDays(today, FREE_TIMES_DAYS) ? 'UNFIT' : null;
}

const STEPS: { step: WizardStep; label: string }[] = [
  { step: 'CLIENT', label: 'Cliente' },
  { step: 'SERVICE', label: 'Serviços' },
  { step: 'TIME', label: 'Horário' },
];

interface AppointmentModalProps {
  /** null creates, an id edits. */
  idScheduling: number | null;
  companies: Company[];
  defaultCompany: number | null;
  mayChangeCompany: boolean;
  onClose: () => void;
  /** After a successful save, with the appointment's day. */
  onSaved: (date: string) => void;
  /** The day the agenda shows ('YYYY-MM-DD'; null: today), which the time step starts on. */
  agendaDay?: string | null;
  /** An empty slot clicked in the agenda: its professional, day and time are filled in. */
  slot?: AgendaSlot | null;
  /** The edited appointment's place in its series: its save asks which ones to change. */
  series?: SeriesAnswer | null;
}

/** 'Novo agendamento' / 'Editar agendamento': CLIENT, SERVICE, TIME. */
export function AppointmentModal({
  idScheduling,
  companies,
  defaultCompany,
  mayChangeCompany,
  onClose,
  onSaved,
  agendaDay = null,
  slot = null,
  series: inSeries = null,
}: AppointmentModalProps) {
  const editing = idScheduling !== null;
  const timeZone = companies.find((company) => company.IdCompany === defaultCompany)?.TimeZone;
  const [state, dispatch] = useReducer(
    wizardSlice.reducer,
    undefined,
    (): WizardState => ({
      ...initialWizardState,
      idCompany: defaultCompany,
      idProfessional: slot?.idProfessional ?? null,
      date: slot?.date ?? null,
    }),
  );
  const detail = useGetSchedulingQuery(idScheduling ?? skipToken);
  const prefilled = useRef(false);

  // Editing starts at SERVICE; services, professional and time arrive 500 ms apart.
  useEffect(() => {
    const data = detail.data;
    if (!data || prefilled.current) return;
    prefilled.current = true;
    dispatch(wizard.editLoaded(data));
    const professional = data.CompanyProfessional.Professional.IdProfessional;
    const steps = [
      () => dispatch(wizard.servicesPrefilled(data.SchedulingServices.map((s) => s.IdService))),
      () => dispatch(wizard.professionalPrefilled(professional)),
      () =>
        dispatch(
          wizard.timePrefilled({
            date: data.Date,
            hour: { start: shortTime(data.StartTime), end: shortTime(data.EndTime), idProfessional: professional },
          }),
        ),
    ];
    const timers = steps.map((step, index) => window.setTimeout(step, index * PREFILL_STAGGER_MS));
    return () => timers.forEach((timer) => window.clearTimeout(timer));
  }, [detail.data]);

  const services = useGetUnitServicesQuery(state.idCompany ?? skipToken);
  const timesQuery = useGetAvailableTimesQuery(
    state.idCompany && state.serviceIds.length
      ? {
          idCompany: state.idCompany,
          idServices: [...state.serviceIds].sort((a, b) => a - b),
          timesType: state.timesType,
          idSchedulingEdit: idScheduling,
        }
      : skipToken,
  );
  // A failed call leaves no professionals and no times (spec 01 §8).
  const answer = timesQuery.isError ? undefined : timesQuery.currentData;
  const allDates = useMemo(() => availableDates(answer?.times, null), [answer]);
  const dates = useMemo(() => availableDates(answer?.times, state.idProfessional), [answer, state.idProfessional]);

  // Read again when another desk books (live changes): a chosen time they took is cleared.
  useEffect(() => {
    if (answer) dispatch(wizard.freeTimesRead(answer.times));
  }, [answer]);

  // The agenda's day is shown until the user picks another (the first day with free times
  // when the agenda shows a past day).
  useEffect(() => {
    if (state.date || state.step !== 'TIME') return;
    const first = initialDate(agendaDay, dates, todayIso(Date.now(), timeZone));
    if (first) dispatch(wizard.dateDefaulted(first));
  }, [state.date, dates, state.step, agendaDay, timeZone]);

  // The clicked slot's time is chosen once the free times are known, if the services fit
  // there; otherwise the professional and the day stay filled in, the wizard says the services
  // do not fit there (issue 45), and the user picks a time.
  const slotTried = useRef(false);
  useEffect(() => {
    if (!slot || slotTried.current || state.step !== 'TIME' || !answer || timesQuery.isFetching) return;
    slotTried.current = true;
    const fit = slotFit(answer.times, slot, todayIso(Date.now(), timeZone));
    if (fit === 'UNFIT') dispatch(wizard.slotUnfit());
    else if (fit) dispatch(wizard.hourChosen(fit));
  }, [slot, state.step, answer, timesQuery.isFetching, timeZone]);

  const [book, booking] = useBookSchedulingMutation();
  const [change, changing] = useChangeSchedulingMutation();
  // A retried request is not a second appointment.
  const withKey = useIdempotencyKey();
  const questions = useWriteQuestions();
  const saving = booking.isLoading || changing.isLoading || questions.sendingSeries;

  /** The professional of the chosen time in the unit: from the free times, or an edit's own. */
  const membershipOf = (hour: FreeHour | null) =>
    hour
      ? (answer?.professionals.find((p) => p.idProfessional === hour.idProfessional)?.idCompanyProfessional ??
        (detail.data?.CompanyProfessional.Professional.IdProfessional === hour.idProfessional
          ? detail.data.IdCompanyProfessional
          : undefined))
      : undefined;

  // 'Repetir' (issue 45): a new booking only.
  const series = useSeries({
    form: editing ? null : wizardPayload(state, membershipOf(state.hour)),
    idProfessional: state.hour?.idProfessional ?? null,
    idCompany: state.idCompany,
    answer,
    today: todayIso(Date.now(), timeZone),
  });
  const repeating = !editing && series.on;
  const sending = saving || series.booking;

  const confirm = async () => {
    if (repeating) {
      const first = await series.book();
      if (!first) return;
      dispatch(wizard.submitted());
      onSaved(first);
      return;
    }
    if (!canConfirm(state) || !state.hour || !state.client || !state.date) return;
    const hour = state.hour;
    const payload = wizardPayload(state, membershipOf(hour));
    if (!payload) return;
    const date = state.date;
    let saved;
    if (editing) {
      // Of a series: which ones; another professional: which prices (issue 45). Cancelled,
      // the form stays as it is.
      const scope = await questions.askSeriesScope(inSeries);
      if (!scope) return;
      const priced = detail.data ? await questions.askPrice(detail.data, hour.idProfessional, state.serviceIds) : {};
      if (!priced) return;
      if (scope !== 'ONE') {
        // All or none: refused, the message was shown and the form stays as it is.
        if (!(await questions.sendSeries({ id: idScheduling, scope, payload: { ...payload, ...priced } }))) return;
        dispatch(wizard.submitted());
        onSaved(date);
        return;
      }
      saved = await questions.send((extra) => change({ id: idScheduling, payload: { ...payload, ...priced, ...extra } }).unwrap());
    } else {
      saved = await questions.send((extra) =>
        withKey((idempotencyKey) => book({ payload: { ...payload, ...extra }, idempotencyKey }).unwrap()),
      );
    }
    // Not saved: the message was shown, or the user chose not to book the client twice.
    if (!saved) return;
    notifySuccess(bookedMessage(date, hour.start));
    dispatch(wizard.submitted());
    onSaved(date);
  };

  const step = state.step;
  const servicesTooltip = !state.serviceIds.length
    ? CHOOSE_SERVICE_TOOLTIP
    : !timesQuery.isFetching && !allDates.length
      ? NO_DATES_TOOLTIP
      : null;

  const footer = (
    <>
      {step !== 'CLIENT' && (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => dispatch(wizard.stepChanged(step === 'TIME' ? 'SERVICE' : 'CLIENT'))}
        >
          Anterior
        </button>
      )}
      {step === 'CLIENT' && (
        <Tooltip text={canLeaveClientStep(state) ? null : CHOOSE_CLIENT_TOOLTIP}>
          <button
            type="button"
            className="button button-primary"
            disabled={!canLeaveClientStep(state)}
            onClick={() => dispatch(wizard.stepChanged('SERVICE'))}
          >
            Próximo
          </button>
        </Tooltip>
      )}
      {step === 'SERVICE' && (
        <Tooltip text={servicesTooltip}>
          <button
            type="button"
            className="button button-primary"
            disabled={!state.serviceIds.length || !allDates.length}
            onClick={() => dispatch(wizard.stepChanged('TIME'))}
          >
            Próximo
          </button>
        </Tooltip>
      )}
      {step === 'TIME' && repeating && (
        <Tooltip text={canConfirm(state) ? series.blocked : CONFIRM_TOOLTIP}>
          <button
            type="button"
            className="button button-primary"
            disabled={!canConfirm(state) || series.blocked !== null || sending}
            onClick={confirm}
          >
            {bookSeriesLabel(series.count)}
          </button>
        </Tooltip>
      )}
      {step === 'TIME' && !repeating && (
        <Tooltip text={canConfirm(state) ? null : CONFIRM_TOOLTIP}>
          <button
            type="button"
            className="button button-primary"
            disabled={!canConfirm(state) || saving}
            onClick={confirm}
          >
            Confirmar
          </button>
        </Tooltip>
      )}
    </>
  );

  return (
    <>
      <Modal open title={editing ? 'Editar agendamento' : 'Novo agendamento'} onClose={onClose} footer={footer}>
        <ol className="wizard-steps">
          {STEPS.map((entry, index) => (
            <li
              key={entry.step}
              className={entry.step === step ? 'wizard-step-current' : undefined}
              aria-current={entry.step === step ? 'step' : undefined}
            >
              <span className="wizard-step-number">{index + 1}</span> {entry.label}
            </li>
          ))}
        </ol>
        {slot && !editing && (
          <p className="wizard-chosen">
            Horário escolhido na agenda: <strong>{formatDateBR(slot.date)} às {slot.start}</strong>
          </p>
        )}
        {editing && !detail.data ? (
          <p className="muted">Carregando...</p>
        ) : (
          <>
            {step === 'CLIENT' && (
              <section aria-label="Cliente">
                {state.client && (
                  <p className="wizard-chosen">
                    Cliente: <strong>{state.client.Name}</strong>
                    <NoShowBadge client={state.client} />
                  </p>
                )}
                <ClientSearch
                  selected={state.client?.IdUser ?? null}
                  onSelect={(client) => dispatch(wizard.clientChosen(client))}
                />
              </section>
            )}
            {step === 'SERVICE' && (
              <section aria-label="Serviços" className="wizard-section">
                <SearchableSelect
                  label="Barbearia"
                  options={companies.map((c) => ({ value: c.IdCompany, label: c.Name, detail: `${c.City} - ${c.State}` }))}
                  value={state.idCompany}
                  disabled={!mayChangeCompany}
                  onChange={(id) => dispatch(wizard.companyChanged(id))}
                />
                <ServicePicker
                  services={services.data}
                  chosen={state.serviceIds}
                  onToggle={(id) => dispatch(wizard.serviceToggled(id))}
                />
                <TextAreaField
                  label="Observações"
                  value={state.observation}
                  onChange={(text) => dispatch(wizard.observationChanged(text))}
                />
              </section>
            )}
            {step === 'TIME' && (
              <WizardTimeStep
                state={state}
                dispatch={dispatch}
                answer={answer}
                dates={dates}
                loading={timesQuery.isFetching}
                series={editing ? undefined : series}
              />
            )}
          </>
        )}
      </Modal>
      {questions.dialogs}
    </>
  );
}

/**
 * The appointment modal as the agenda screens open it (desktop and mobile): for the
 * appointment in the agenda slice, closed on cancel, and moving the agenda to the booked day.
 */
export function AgendaAppointmentModal({ scope }: { scope: AgendaScope }) {
  const dispatch = useAppDispatch();
  const { modal, date } = useAppSelector(selectAgenda);
  if (!modal.open) return null;
  return (
    <AppointmentModal
      key={modal.idScheduling ?? (modal.slot ? `${modal.slot.idProfessional}-${modal.slot.date}-${modal.slot.start}` : 'new')}
      idScheduling={modal.idScheduling}
      companies={scope.companies}
      defaultCompany={scope.company?.IdCompany ?? null}
      mayChangeCompany={scope.mayChangeCompany}
      agendaDay={date}
      slot={modal.slot}
      series={modal.series}
      onClose={() => dispatch(modalClosed())}
      onSaved={(date) => {
        dispatch(dayChosen(date));
        dispatch(modalClosed());
      }}
    />
  );
}
