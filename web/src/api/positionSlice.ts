import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * Read-your-writes: the last event position the command side reported
 * (header X-Navalha-Position). Every GET sends it back so the query side
 * waits until its read models have caught up with the user's own writes.
 */
export interface PositionState {
  last: string | null;
}

const initialState: PositionState = { last: null };

/** A position is `<tx_id>.<global_position>`: commit order, compared transaction first. */
export const parsePosition = (value: string): [bigint, bigint] | null => {
  const match = /^(\d+)\.(\d+)$/.exec(value);
  return match ? [BigInt(match[1]), BigInt(match[2])] : null;
};

export const isBefore = (a: string, b: string): boolean => {
  const pa = parsePosition(a);
  const pb = parsePosition(b);
  if (!pa || !pb) return false;
  return pa[0] < pb[0] || (pa[0] === pb[0] && pa[1] < pb[1]);
};

export const positionSlice = createSlice({
  name: 'position',
  initialState,
  reducers: {
    positionReceived(state, action: PayloadAction<string>) {
      const next = action.payload.trim();
      if (!next) return;
      // Answers may arrive out of order: never move the position backwards.
      if (state.last && isBefore(next, state.last)) {
        return;
      }
      state.last = next;
    },
  },
  selectors: {
    selectLastPosition: (state) => state.last,
  },
});

export const { positionReceived } = positionSlice.actions;
export const { selectLastPosition } = positionSlice.selectors;
