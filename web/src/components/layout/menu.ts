import type { ComponentType } from 'react';
import type { IconName } from '../Icon';

/** Slugs the server accepts for favourites. */
export type MenuSlug =
  | 'home'
  | 'scheduling'
  | 'client'
  | 'professional'
  | 'company'
  | 'subscription-detail-list'
  | 'subscription-user-detail-list'
  | 'holiday'
  | 'profile';

export interface MenuRoute {
  /** Path under /dashboard, without a leading slash ('' for the index). */
  path: string;
  /** Favourite slug; routes hidden from the menu use a local one. */
  slug: MenuSlug | string;
  isIndex?: boolean;
  component: ComponentType;
}

/** A menu entry: a leaf with a route, or a group (sessionTitle) with children. */
export interface MenuItem {
  label: string;
  icon?: IconName;
  route?: MenuRoute;
  showInMenu: boolean;
  children?: MenuItem[];
  sessionTitle?: string;
}

/** Every route of a menu tree, hidden ones included, depth first. */
export function menuRoutes(items: MenuItem[]): MenuRoute[] {
  return items.flatMap((item) => [
    ...(item.route ? [item.route] : []),
    ...menuRoutes(item.children ?? []),
  ]);
}

/** Leaves shown in the menu, in menu order; these can be favourites. */
export function visibleLeaves(items: MenuItem[]): MenuItem[] {
  return items.flatMap((item) => {
    if (!item.showInMenu) return [];
    if (item.children) return visibleLeaves(item.children);
    return item.route ? [item] : [];
  });
}

/** Absolute URL of a route. */
export const dashboardPath = (route: MenuRoute) =>
  route.isIndex || !route.path ? '/dashboard' : `/dashboard/${route.path}`;
