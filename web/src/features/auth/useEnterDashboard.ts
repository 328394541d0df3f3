import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '@/state/hooks';
import { flushPersisted } from '@/state/persist';

/**
 * After a sign-in: waits until the session is written to storage (redux-persist's flush),
 * then opens the dashboard, so a reload right after it never finds an empty session.
 */
export function useEnterDashboard() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(async () => {
    await flushPersisted(dispatch);
    navigate('/dashboard', { replace: true });
  }, [dispatch, navigate]);
}
