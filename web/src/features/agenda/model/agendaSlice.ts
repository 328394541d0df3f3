import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { RoleType } from '@/api/types';
import { companySelected, signedOut } from '@/state/sessionSlice';
import type { SeriesAnswer, StatusFilter } from './types';

/** The agenda screen's client state: the day, the filters, the view and the modal. */
export interface AgendaState {
  /** The day shown, 'YYYY-MM-DD'; null follows today. */
  date: string | null;
  /** 0 means 'Todos'. */
  idProfessional: number;
  /** 0 means 'Todos'. */
  idUser: number;
  /** The chosen client's name, to show in the filter. */
  clientName: string;
  status: StatusFilter;
  view: 'list' | 'timeline' | 'week';
  /** Mobile list: cancelled instead of confirmed appointments. */
  showCancelled: boolean;
  /**
   * The appointment modal: closed, new (id null) or editing an id; `series` is the edited
   * appointment's place in its series, when it has one (its save asks which ones to change).
   */
  modal: { open: boolean; idScheduling: number | null; slot?: AgendaSlot | null; series?: SeriesAnswer };
  /** ADMIN's past view: the instant shown, 'YYYY-MM-DDTHH:MM:SS' on the unit's clock; null is now. */
  asOf: string | null;
}

/** An empty slot clicked on the timeline or the week: who, which day, what time. */
export interface AgendaSlot {
  idProfessional: number;
  date: string;
  /** 'HH:MM'. */
  start: string;
}

export const initialAgendaState: AgendaState = {
  date: null,
  idProfessional: 0,
  idUser: 0,
  clientName: '',
  status: 0,
  view: 'list',
  showCancelled: false,
  modal: { open: false, idScheduling: null },
  asOf: null,
};

export const agendaSlice = createSlice({
  name: 'agenda',
  initialState: initialAgendaState,
  reducers: {
    dayChosen(state, action: PayloadAction<string>) {
      state.date = action.payload;
    },
    professionalFiltered(state, action: PayloadAction<number>) {
      state.idProfessional = action.payload;
    },
    clientFiltered(state, action: PayloadAction<{ idUser: number; name: string }>) {
      state.idUser = action.payload.idUser;
      state.clientName = action.payload.idUser ? action.payload.name : '';
    },
    statusFiltered(state, action: PayloadAction<StatusFilter>) {
      state.status = action.payload;
    },
    viewChosen(state, action: PayloadAction<AgendaState['view']>) {
      state.view = action.payload;
    },
    cancelledToggled(state) {
      state.showCancelled = !state.showCancelled;
    },
    modalOpened: {
      reducer(state, action: PayloadAction<{ idScheduling: number | null; series?: SeriesAnswer | null }>) {
        const { idScheduling, series } = action.payload;
        state.modal = { open: true, idScheduling, ...(series ? { series } : {}) };
      },
      /** `modalOpened(null)` creates; `modalOpened(id, item.Series)` edits. */
      prepare: (idScheduling: number | null, series?: SeriesAnswer | null) => ({ payload: { idScheduling, series } }),
    },
    /** 'Novo agendamento' with the clicked slot's professional, day and time filled in. */
    slotChosen(state, action: PayloadAction<AgendaSlot>) {
      state.modal = { open: true, idScheduling: null, slot: action.payload };
    },
    modalClosed(state) {
      state.modal = { open: false, idScheduling: null };
    },
    /** The past view shows the day as it stood at this instant; null goes back to now. */
    pastViewChosen(state, action: PayloadAction<string | null>) {
      state.asOf = action.payload;
    },
  },
  extraReducers: (builder) => {
    // Another unit has other professionals.
    builder.addCase(companySelected, (state) => {
      state.idProfessional = 0;
    });
    builder.addCase(signedOut, () => initialAgendaState);
  },
  selectors: {
    selectAgenda: (state) => state,
    selectAgendaModal: (state) => state.modal,
  },
});

export const {
  dayChosen,
  professionalFiltered,
  clientFiltered,
  statusFiltered,
  viewChosen,
  cancelledToggled,
  modalOpened,
  slotChosen,
  modalClosed,
  pastViewChosen,
} = agendaSlice.actions;
export const { selectAgenda, selectAgendaModal } = agendaSlice.selectors;

// Role rules of spec 01 §6 for the agenda.

const CHOOSE_ANY_PROFESSIONAL: RoleType[] = ['ADMIN', 'ATTENDANT', 'BARBER_LEADE'];
const CHANGE_COMPANY: RoleType[] = ['ADMIN', 'ATTENDANT'];

/** ADMIN, ATTENDANT and BARBER_LEADE, and staff without a professional id, choose anyone. */
export function mayChooseAnyProfessional(role: RoleType | null, idProfessional: number | null): boolean {
  if (idProfessional === null || idProfessional === undefined) return true;
  return role !== null && CHOOSE_ANY_PROFESSIONAL.includes(role);
}

/** ADMIN and ATTENDANT may change the company in the agenda filter. */
export const mayChangeCompany = (role: RoleType | null) => role !== null && CHANGE_COMPANY.includes(role);

/** The professional whose agenda is read: the filter, or one's own for the other roles. */
export function effectiveProfessional(
  chosen: number,
  role: RoleType | null,
  idProfessional: number | null,
): number | null {
  if (mayChooseAnyProfessional(role, idProfessional)) return chosen || null;
  return idProfessional;
}
