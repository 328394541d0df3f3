import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface UiState {
  /** Lateral menu expanded; closed until the user opens it. */
  menuOpen: boolean;
  /** Open/closed state of each menu group, by its title. */
  menuGroups: Record<string, boolean>;
}

export const initialUiState: UiState = {
  menuOpen: false,
  menuGroups: {},
};

/** Width at or below which a window resize collapses the lateral menu. */
export const MENU_COLLAPSE_WIDTH = 2000;

export const uiSlice = createSlice({
  name: 'ui',
  initialState: initialUiState,
  reducers: {
    menuToggled(state) {
      state.menuOpen = !state.menuOpen;
    },
    menuCollapsed(state) {
      state.menuOpen = false;
    },
    menuExpanded(state) {
      state.menuOpen = true;
    },
    windowResized(state, action: PayloadAction<number>) {
      state.menuOpen = action.payload > MENU_COLLAPSE_WIDTH;
    },
    menuGroupToggled(state, action: PayloadAction<string>) {
      const title = action.payload;
      state.menuGroups[title] = !(state.menuGroups[title] ?? true);
    },
  },
  selectors: {
    selectMenuOpen: (state) => state.menuOpen,
    // Groups start open until the user closes them.
    selectMenuGroupOpen: (state, title: string) => state.menuGroups[title] ?? true,
  },
});

export const { menuToggled, menuCollapsed, menuExpanded, windowResized, menuGroupToggled } =
  uiSlice.actions;
export const { selectMenuOpen, selectMenuGroupOpen } = uiSlice.selectors;
