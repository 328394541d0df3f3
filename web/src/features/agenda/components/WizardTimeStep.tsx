import type { UnknownAction } from '@reduxjs/toolkit';
import { useId } from 'react';
import { DatePicker } from '@/components/DatePicker';
import { timeNoticeText, wizard, type WizardState } from '../model/wizardSlice';
import type { AvailableTimes, TimesType } from '../model/types';
import type { SeriesControl } from '../hooks/useSeries';
import { SeriesPanel } from './SeriesPanel';
import { ProfessionalPicker, TimePicker } from './TimePicker';

interface WizardTimeStepProps {
  state: WizardState;
  /** The wizard's reducer dispatch. */
  dispatch: (action: UnknownAction) => void;
  /** The free times of the chosen services (undefined while unknown or after a failed call). */
  answer: AvailableTimes | undefined;
  /** The days with a free time for the chosen professional. */
  dates: string[];
  loading: boolean;
  /**
   * The mobile flow's layout: one column, the professional and the calendar once services are
   * chosen (and the calendar only with free days), and no times-type choice (the flow omits it).
   */
  compact?: boolean;
  /** 'Repetir' (issue 45): a new booking only, not an edit. */
  series?: SeriesControl;
}

/** 'Horário' of the appointment modal and of the mobile flow: professional, day and free time. */
export function WizardTimeStep({ state, dispatch, answer, dates, loading, compact = false, series }: WizardTimeStepProps) {
  const hasServices = state.serviceIds.length > 0;
  const professional = (
    <ProfessionalPicker
      professionals={answer?.professionals}
      value={state.idProfessional}
      onChange={(id) => dispatch(wizard.professionalChosen(id))}
    />
  );
  const calendar = (
    <DatePicker
      value={state.date}
      availableDates={dates}
      onChange={(iso) => dispatch(wizard.dateChosen(iso))}
      label="Data do agendamento"
    />
  );
  const times = (
    <TimePicker
      hasServices={hasServices}
      times={answer?.times}
      date={state.date}
      idProfessional={state.idProfessional}
      chosen={state.hour}
      loading={loading}
      onChoose={(hour) => dispatch(wizard.hourChosen(hour))}
      notice={timeNoticeText(state.timeNotice)}
    />
  );

  if (compact) {
    return (
      <section className="mobile-times" aria-label="Horário">
        {hasServices && professional}
        {hasServices && dates.length > 0 && calendar}
        {times}
        {series && hasServices && <SeriesPanel control={series} />}
      </section>
    );
  }
  return (
    <section aria-label="Horário" className="wizard-time">
      <div className="wizard-time-options">
        {professional}
        <TimesTypeRadio value={state.timesType} onChange={(t) => dispatch(wizard.timesTypeChosen(t))} />
      </div>
      <div className="wizard-time-pickers">
        {calendar}
        {times}
      </div>
      {series && <SeriesPanel control={series} />}
    </section>
  );
}

function TimesTypeRadio({ value, onChange }: { value: TimesType; onChange: (value: TimesType) => void }) {
  const name = useId();
  return (
    <fieldset className="radio-group">
      <legend className="visually-hidden">Horários</legend>
      <label>
        <input
          type="radio"
          name={name}
          checked={value === 'ONLY_AVAILABLES'}
          onChange={() => onChange('ONLY_AVAILABLES')}
        />
        Somente disponíveis
      </label>
      <label>
        <input type="radio" name={name} checked={value === 'ALL_TIMES'} onChange={() => onChange('ALL_TIMES')} />
        Todos os horários
      </label>
    </fieldset>
  );
}
