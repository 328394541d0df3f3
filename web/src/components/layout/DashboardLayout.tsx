import { Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useGetFavoritesQuery } from '@/api/favoritesApi';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import { selectIsSignedIn, signedOut } from '@/state/sessionSlice';
import { menuCollapsed, selectMenuOpen, windowResized } from '@/state/uiSlice';
import { ConfirmDialog } from '../ConfirmDialog';
import type { MenuItem } from './menu';
import { SideMenu } from './SideMenu';

interface DashboardLayoutProps {
  menu: MenuItem[];
  children: ReactNode;
}

/** The signed-in frame: lateral menu, content and the sign-out confirmation. */
export function DashboardLayout({ menu, children }: DashboardLayoutProps) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const menuOpen = useAppSelector(selectMenuOpen);
  const signedIn = useAppSelector(selectIsSignedIn);
  const [confirmingSignOut, setConfirmingSignOut] = useState(false);

  // Keeps the stored favourites fresh and refetches them after each toggle.
  useGetFavoritesQuery(undefined, { skip: !signedIn });

  useEffect(() => {
    const onResize = () => dispatch(windowResized(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [dispatch]);

  const cancelSignOut = useCallback(() => setConfirmingSignOut(false), []);
  const confirmSignOut = () => {
    setConfirmingSignOut(false);
    dispatch(signedOut());
    navigate('/', { replace: true });
  };

  return (
    <div className={`shell ${menuOpen ? 'shell-menu-open' : 'shell-menu-collapsed'}`}>
      <SideMenu menu={menu} onSignOut={() => setConfirmingSignOut(true)} />
      <main
        className="shell-content"
        onClick={() => {
          if (menuOpen) dispatch(menuCollapsed());
        }}
      >
        <Suspense fallback={<p className="page-loading">Carregando...</p>}>{children}</Suspense>
      </main>
      <ConfirmDialog
        open={confirmingSignOut}
        title="Atencão!"
        confirmLabel="Sair"
        cancelLabel="Cancelar"
        onConfirm={confirmSignOut}
        onCancel={cancelSignOut}
      >
        <p>Deseja realmente sair ?</p>
      </ConfirmDialog>
    </div>
  );
}
