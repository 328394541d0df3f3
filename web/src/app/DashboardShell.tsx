import { useMemo } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { DashboardLayout } from '@/components/layout/DashboardLayout';
import { dashboardPath, menuRoutes, visibleLeaves } from '@/components/layout/menu';
import { NotFound } from '@/components/NotFound';
import { PendingPaymentNotice } from '@/features/business/PendingPaymentNotice';
import { selectRoleType } from '@/state/sessionSlice';
import { menuForRole } from './menus';
import { useAppSelector } from '@/state/hooks';

/** /dashboard/*: the role's menu decides both the side menu and the child routes. */
export function DashboardShell() {
  const role = useAppSelector(selectRoleType);
  const menu = useMemo(() => menuForRole(role), [role]);

  const routes = useMemo<RouteObject[]>(() => {
    const children: RouteObject[] = menuRoutes(menu).map(({ path, isIndex, component: Page }) =>
      isIndex ? { index: true, element: <Page /> } : { path, element: <Page /> },
    );
    // Roles without a home screen land on their first menu item.
    if (!children.some((route) => route.index)) {
      const first = visibleLeaves(menu)[0]?.route;
      if (first) children.unshift({ index: true, element: <Navigate to={dashboardPath(first)} replace /> });
    }
    children.push({ path: '*', element: <NotFound homePath="/dashboard" /> });
    return children;
  }, [menu]);

  const element = useRoutes(routes);
  return (
    <DashboardLayout menu={menu}>
      {element}
      <PendingPaymentNotice />
    </DashboardLayout>
  );
}
