import { Outlet, useLocation } from 'react-router';
import { LoadingOverlay } from '@/components/LoadingOverlay';
import { TOAST_DEFAULT_AUTO_CLOSE, TOAST_SHELL_AUTO_CLOSE, Toasts } from '@/components/Toasts';

/** Wraps every route: the page, the loading overlay and the single toast container. */
export function RootLayout() {
  const inShell = useLocation().pathname.startsWith('/dashboard');
  return (
    <>
      <Outlet />
      <LoadingOverlay />
      <Toasts autoClose={inShell ? TOAST_SHELL_AUTO_CLOSE : TOAST_DEFAULT_AUTO_CLOSE} />
    </>
  );
}
