import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface UiState {
  /**
   * The lateral menu at desktop width: expanded until the user folds it with ☰, then as they
   * left it (issue 45: a first sign-in showed only ☰). On a narrow screen the menu is a top
   * bar whose full-screen list starts closed every time, whatever this says.
   */
  menuOpen: boolean;
  /** Open/closed state of each menu group, by its title. */
  menuGroups: Record<string, boolean>;
  /**
   * The home's unit as each user last chose it (issue 45), by the user's professional id:
   * '' for 'Todas as unidades', otherwise the unit's id. Kept across sign-outs, as the menu is.
   */
  homeUnits: Record<string, string>;
  /**
   * The agenda's unit as each user last chose it there (issue 45), by the user's professional
   * id: the unit's id. The agenda opens on it while it is still one of the user's units.
   */
  agendaUnits: Record<string, string>;
}

export const initialUiState: UiState = {
  menuOpen: true,
  menuGroups: {},
  homeUnits: {},
  agendaUnits: {},
};

export const uiSlice = createSlice({
  name: 'ui',
  initialState: initialUiState,
  reducers: {
    menuToggled(state) {
      state.menuOpen = !state.menuOpen;
    },
    menuGroupToggled(state, action: PayloadAction<string>) {
      const title = action.payload;
      state.menuGroups[title] = !(state.menuGroups[title] ?? true);
    },
    homeUnitChosen(state, action: PayloadAction<{ user: string; unit: string }>) {
      state.homeUnits[action.payload.user] = action.payload.unit;
    },
    agendaUnitChosen(state, action: PayloadAction<{ user: string; unit: string }>) {
      state.agendaUnits[action.payload.user] = action.payload.unit;
    },
  },
  selectors: {
    selectMenuOpen: (state) => state.menuOpen,
    // Groups start open until the user closes them.
    selectMenuGroupOpen: (state, title: string) => state.menuGroups[title] ?? true,
    /** The user's last home unit ('' for every unit), or undefined before they chose one. */
    selectHomeUnit: (state, user: string): string | undefined => state.homeUnits[user],
    /** The unit the user last chose in the agenda, or undefined before they chose one. */
    selectAgendaUnit: (state, user: string): string | undefined => state.agendaUnits[user],
  },
});

export const { menuToggled, menuGroupToggled, homeUnitChosen, agendaUnitChosen } = uiSlice.actions;
export const { selectMenuOpen, selectMenuGroupOpen, selectHomeUnit, selectAgendaUnit } = uiSlice.selectors;
