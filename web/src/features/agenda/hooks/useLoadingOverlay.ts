import { useEffect } from 'react';
import { useAppDispatch } from '@/state/hooks';
import { loadingClosed, loadingOpened } from '@/state/loadingSlice';

/** The agenda's loading text (spec 01 §2). */
export const AGENDA_LOADING_TEXT = 'Carregando...';

/** Shows the full-screen overlay while `busy`. */
export function useLoadingOverlay(busy: boolean, text = AGENDA_LOADING_TEXT) {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!busy) return;
    dispatch(loadingOpened(text));
    return () => {
      dispatch(loadingClosed());
    };
  }, [busy, text, dispatch]);
}
