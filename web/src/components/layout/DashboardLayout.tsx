import { Suspense, useCallback, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useGetFavoritesQuery } from '@/api/favoritesApi';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import { selectIsSignedIn, signedOut } from '@/state/sessionSlice';
import { menuToggled, selectMenuOpen } from '@/state/uiSlice';
import { ConfirmDialog } from '../ConfirmDialog';
import { useNarrowScreen } from '../useNarrowScreen';
import type { MenuItem } from './menu';
import { SideMenu } from './SideMenu';

interface DashboardLayoutProps {
  menu: MenuItem[];
  children: ReactNode;
}

/**
 * The signed-in frame: lateral menu, content and the sign-out confirmation.
 *
 * At desktop width the menu is a rail beside the content, expanded until the user folds it
 * with ☰ and then as they left it (remembered; issue 45). It no longer folds on a click in
 * the content or on a resize (spec 01 §4 had both): a rail that shifts the page under the
 * pointer, or hides the navigation after the first click, is what issue 45 found. On a
 * narrow screen the menu is a top bar; ☰ opens the full list over the page, for one choice.
 */
export function DashboardLayout({ menu, children }: DashboardLayoutProps) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const narrow = useNarrowScreen();
  const railOpen = useAppSelector(selectMenuOpen);
  // The page the narrow screen's list was opened on: going elsewhere closes it.
  const [overlayOn, setOverlayOn] = useState<string | null>(null);
  const menuOpen = narrow ? overlayOn === pathname : railOpen;
  const signedIn = useAppSelector(selectIsSignedIn);
  const [confirmingSignOut, setConfirmingSignOut] = useState(false);

  // Keeps the stored favourites fresh and refetches them after each toggle.
  useGetFavoritesQuery(undefined, { skip: !signedIn });

  const toggleMenu = () => {
    if (narrow) setOverlayOn(menuOpen ? null : pathname);
    else dispatch(menuToggled());
  };

  const cancelSignOut = useCallback(() => setConfirmingSignOut(false), []);
  const confirmSignOut = () => {
    setConfirmingSignOut(false);
    dispatch(signedOut());
    navigate('/', { replace: true });
  };

  return (
    <div className={`shell ${menuOpen ? 'shell-menu-open' : 'shell-menu-collapsed'}`}>
      <SideMenu
        menu={menu}
        open={menuOpen}
        onToggle={toggleMenu}
        onNavigate={() => setOverlayOn(null)}
        onSignOut={() => setConfirmingSignOut(true)}
      />
      <main className="shell-content">
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
