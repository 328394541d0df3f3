import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { TAKEN_TIME_MESSAGE, stillOffered } from './promises';
import type { ClientItem, FreeDay, FreeHour, SchedulingDetail, TimesType } from './types';

// The three-step appointment modal (spec 01 §2, §4). Used with useReducer inside the
// modal: its state lives and dies with the modal, like a form's.

export type WizardStep = 'CLIENT' | 'SERVICE' | 'TIME';

/**
 * What the time step says above the times (issue 45): the chosen time was taken by another
 * desk, or the services chosen do not fit at the time clicked on the agenda.
 */
export type TimeNotice = 'TAKEN' | 'SLOT_UNFIT';

export const SLOT_UNFIT_MESSAGE = 'Os serviços escolhidos não cabem neste horário. Escolha outro.';

export const TIME_NOTICES: Record<TimeNotice, string> = {
  TAKEN: TAKEN_TIME_MESSAGE,
  SLOT_UNFIT: SLOT_UNFIT_MESSAGE,
};

/** The text of the time step's notice, if any (TimePicker's `notice`). */
export const timeNoticeText = (notice: TimeNotice | null) => (notice ? TIME_NOTICES[notice] : null);

/** The client the wizard books for (what the search table shows). */
export type WizardClient = Pick<ClientItem, 'IdUser' | 'Name'> & Partial<ClientItem>;

export interface WizardState {
  step: WizardStep;
  /** Editing this appointment, or null for a new one. */
  idScheduling: number | null;
  client: WizardClient | null;
  idCompany: number | null;
  serviceIds: number[];
  observation: string;
  /** null is 'Sem preferência'. */
  idProfessional: number | null;
  timesType: TimesType;
  date: string | null;
  hour: FreeHour | null;
  /** Whether `hour` was among the free times read (an edit's own time is not, until they are read). */
  hourOffered: boolean;
  /** What to say about the time: taken by another desk, or the clicked slot too short for the services. */
  timeNotice: TimeNotice | null;
  /** What the user chose while an edit's prefill was under way: the prefill leaves it. */
  chosenByUser: { professional: boolean; time: boolean };
}

export const initialWizardState: WizardState = {
  step: 'CLIENT',
  idScheduling: null,
  client: null,
  idCompany: null,
  serviceIds: [],
  observation: '',
  idProfessional: null,
  timesType: 'ONLY_AVAILABLES',
  date: null,
  hour: null,
  hourOffered: false,
  timeNotice: null,
  chosenByUser: { professional: false, time: false },
};

/** No time chosen, and nothing to say about the last one. */
function clearTime(state: WizardState) {
  state.hour = null;
  state.hourOffered = false;
  state.timeNotice = null;
}

/** Delay between the steps of the edit prefill (services, professional, time). */
export const PREFILL_STAGGER_MS = 500;

export const wizardSlice = createSlice({
  name: 'wizard',
  initialState: initialWizardState,
  reducers: {
    started(_state, action: PayloadAction<{ idCompany: number | null }>) {
      return { ...initialWizardState, idCompany: action.payload.idCompany };
    },
    /** Editing: client, unit and notes at once; the rest comes staggered. Starts at SERVICE. */
    editLoaded(_state, action: PayloadAction<SchedulingDetail>) {
      const detail = action.payload;
      return {
        ...initialWizardState,
        step: 'SERVICE',
        idScheduling: detail.IdScheduling,
        client: { IdUser: detail.IdUser, Name: detail.UserName, Phone: detail.UserPhone },
        idCompany: detail.CompanyProfessional.Company.IdCompany,
        observation: detail.Observation ?? '',
        timesType: detail.TimesType === 'ALL_TIMES' ? 'ALL_TIMES' : 'ONLY_AVAILABLES',
      };
    },
    servicesPrefilled(state, action: PayloadAction<number[]>) {
      state.serviceIds = action.payload;
    },
    professionalPrefilled(state, action: PayloadAction<number>) {
      if (state.chosenByUser.professional) return;
      state.idProfessional = action.payload;
    },
    timePrefilled(state, action: PayloadAction<{ date: string; hour: FreeHour }>) {
      if (state.chosenByUser.time) return;
      state.date = action.payload.date;
      state.hour = action.payload.hour;
      state.hourOffered = false;
      state.timeNotice = null;
    },
    clientChosen(state, action: PayloadAction<WizardClient>) {
      state.client = action.payload;
    },
    stepChanged(state, action: PayloadAction<WizardStep>) {
      state.step = action.payload;
    },
    /** Another unit: its professionals, times and services are other ones. */
    companyChanged(state, action: PayloadAction<number>) {
      if (state.idCompany === action.payload) return;
      state.idCompany = action.payload;
      state.serviceIds = [];
      state.idProfessional = null;
      state.date = null;
      clearTime(state);
    },
    serviceToggled(state, action: PayloadAction<number>) {
      const id = action.payload;
      state.serviceIds = state.serviceIds.includes(id)
        ? state.serviceIds.filter((other) => other !== id)
        : [...state.serviceIds, id];
      // Other services take another time: the free times are read again.
      clearTime(state);
    },
    servicesCleared(state) {
      state.serviceIds = [];
      state.date = null;
      clearTime(state);
    },
    observationChanged(state, action: PayloadAction<string>) {
      state.observation = action.payload;
    },
    professionalChosen(state, action: PayloadAction<number | null>) {
      state.idProfessional = action.payload;
      clearTime(state);
      state.chosenByUser.professional = true;
    },
    timesTypeChosen(state, action: PayloadAction<TimesType>) {
      state.timesType = action.payload;
      clearTime(state);
      state.chosenByUser.time = true;
    },
    /** Changing the date clears the chosen time. */
    dateChosen(state, action: PayloadAction<string | null>) {
      state.chosenByUser.time = true;
      if (state.date === action.payload) return;
      state.date = action.payload;
      clearTime(state);
    },
    /** The day shown until the user picks one: not the user's choice. */
    dateDefaulted(state, action: PayloadAction<string>) {
      state.date = action.payload;
      clearTime(state);
    },
    /** A time the free times offer (a button of the picker, or a clicked slot that fits). */
    hourChosen(state, action: PayloadAction<FreeHour>) {
      state.hour = action.payload;
      state.hourOffered = true;
      state.timeNotice = null;
      state.chosenByUser.time = true;
    },
    /**
     * The time clicked on the agenda is not among the free times for the services chosen (they
     * are longer than the gap there): the professional and the day stay, and the wizard says so.
     */
    slotUnfit(state) {
      state.hour = null;
      state.hourOffered = false;
      state.timeNotice = 'SLOT_UNFIT';
    },
    /**
     * The free times were read (again: live changes of other desks read them afresh, issue 45).
     * A chosen time they no longer offer was taken meanwhile: it is cleared and the wizard
     * says so, instead of keeping it for a 409. With 'Sem preferência' a start someone else
     * still has stays, with them. A time never seen among them (an edit's own, before they
     * were read) is left as it is.
     */
    freeTimesRead(state, action: PayloadAction<FreeDay[]>) {
      if (!state.hour || !state.date) return;
      const offered = stillOffered(action.payload, state.date, state.hour, state.idProfessional);
      if (offered) {
        const hour = state.hour;
        if (hour.end !== offered.end || hour.idProfessional !== offered.idProfessional) state.hour = offered;
        state.hourOffered = true;
      } else if (state.hourOffered) {
        state.hour = null;
        state.hourOffered = false;
        state.timeNotice = 'TAKEN';
      }
    },
    /** After a booking: services, client and notes are cleared. */
    submitted(state) {
      state.serviceIds = [];
      state.client = null;
      state.observation = '';
      clearTime(state);
    },
  },
});

export const wizard = wizardSlice.actions;

export const canLeaveClientStep = (state: WizardState) => state.client !== null;
export const canConfirm = (state: WizardState) =>
  state.hour !== null && state.client !== null && state.serviceIds.length > 0;

/** Times of day in the groups the modal shows them in. */
export type DayPeriod = 'Manhã' | 'Tarde' | 'Noite';
export const DAY_PERIODS: DayPeriod[] = ['Manhã', 'Tarde', 'Noite'];

/** Manhã before 12h, Tarde 12h to 17:59, Noite 18h and after. */
export function periodOf(time: string): DayPeriod {
  const hour = Number(time.slice(0, 2));
  if (hour < 12) return 'Manhã';
  if (hour < 18) return 'Tarde';
  return 'Noite';
}

/**
 * The free hours to offer: a chosen professional's, or with 'Sem preferência' each start
 * once (the first professional free then, in the answer's order), grouped by period.
 */
export function offeredHours(hours: FreeHour[], idProfessional: number | null): Record<DayPeriod, FreeHour[]> {
  const groups: Record<DayPeriod, FreeHour[]> = { Manhã: [], Tarde: [], Noite: [] };
  const seen = new Set<string>();
  for (const hour of hours) {
    if (idProfessional !== null && hour.idProfessional !== idProfessional) continue;
    if (seen.has(hour.start)) continue;
    seen.add(hour.start);
    groups[periodOf(hour.start)].push(hour);
  }
  for (const period of DAY_PERIODS) groups[period].sort((a, b) => a.start.localeCompare(b.start));
  return groups;
}
