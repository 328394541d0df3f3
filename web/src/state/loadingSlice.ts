import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export const DEFAULT_LOADING_TEXT = 'Aguarde um momento';

export interface LoadingState {
  open: boolean;
  text: string;
}

const initialState: LoadingState = { open: false, text: DEFAULT_LOADING_TEXT };

// Not persisted: an overlay restored after a reload would never close.
export const loadingSlice = createSlice({
  name: 'loading',
  initialState,
  reducers: {
    loadingOpened(state, action: PayloadAction<string | undefined>) {
      state.open = true;
      state.text = action.payload || DEFAULT_LOADING_TEXT;
    },
    loadingClosed(state) {
      state.open = false;
      state.text = DEFAULT_LOADING_TEXT;
    },
  },
  selectors: {
    selectLoading: (state) => state,
  },
});

export const { loadingOpened, loadingClosed } = loadingSlice.actions;
export const { selectLoading } = loadingSlice.selectors;
