import { Navigate, Outlet } from 'react-router';
import { selectIsSignedIn } from '@/state/sessionSlice';
import { useAppSelector } from '@/state/hooks';

/** Public pages are closed to a signed-in user. */
export function PublicOnly() {
  const signedIn = useAppSelector(selectIsSignedIn);
  return signedIn ? <Navigate to="/dashboard" replace /> : <Outlet />;
}

/** The dashboard requires a session. */
export function RequireAuth() {
  const signedIn = useAppSelector(selectIsSignedIn);
  return signedIn ? <Outlet /> : <Navigate to="/" replace />;
}
