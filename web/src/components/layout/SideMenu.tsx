import { Link, NavLink, useNavigate } from 'react-router';
import { useDeleteFavoriteMutation, useSaveFavoriteMutation } from '@/api/favoritesApi';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import { selectFavoriteSlugs, selectUserName } from '@/state/sessionSlice';
import { menuGroupToggled, selectMenuGroupOpen } from '@/state/uiSlice';
import { Icon } from '../Icon';
import { dashboardPath, visibleLeaves, type MenuItem } from './menu';

interface SideMenuProps {
  menu: MenuItem[];
  /** Expanded (groups and items) or collapsed (favourites as icons). */
  open: boolean;
  /** ☰ and its opposite. */
  onToggle: () => void;
  /** A link or the logo was chosen. */
  onNavigate: () => void;
  onSignOut: () => void;
}

/** Lateral menu: expanded shows groups and items, collapsed only favourites as icons. */
export function SideMenu({ menu, open, onToggle, onNavigate, onSignOut }: SideMenuProps) {
  const navigate = useNavigate();
  const userName = useAppSelector(selectUserName);
  const favorites = useAppSelector(selectFavoriteSlugs);
  const favoriteItems = visibleLeaves(menu).filter((item) => favorites.includes(String(item.route?.slug)));

  return (
    <nav
      className={`side-menu ${open ? 'side-menu-open' : 'side-menu-collapsed'}`}
      aria-label="Menu principal"
      // Every way out of the menu is a link (or the logo): one listener sees them all.
      onClick={(event) => {
        if ((event.target as Element).closest('a')) onNavigate();
      }}
    >
      <div className="side-menu-top">
        <button
          type="button"
          className="logo"
          aria-label="Navalha"
          onClick={() => {
            onNavigate();
            navigate('/dashboard');
          }}
        >
          <Icon name="scissors" size={26} />
          {open && <span className="logo-text">Navalha</span>}
        </button>
        <button
          type="button"
          className="icon-button menu-toggle"
          aria-label={open ? 'Recolher menu' : 'Expandir menu'}
          aria-expanded={open}
          onClick={onToggle}
        >
          <Icon name={open ? 'chevronLeft' : 'menu'} />
        </button>
      </div>

      <div className="side-menu-body">
        {open ? (
          <MenuEntries items={menu} favorites={favorites} />
        ) : (
          <ul className="menu-favorites" aria-label="Favoritos">
            {favoriteItems.map((item) => (
              <li key={item.route!.slug}>
                <NavLink
                  to={dashboardPath(item.route!)}
                  end={item.route!.isIndex}
                  className="menu-icon-link"
                  aria-label={item.label}
                  title={item.label}
                >
                  <Icon name={item.icon ?? 'star'} />
                </NavLink>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="side-menu-bottom">
        {open && <span className="user-name">{userName}</span>}
        <Link
          to="/dashboard/profile"
          className="menu-bottom-link"
          aria-label={open ? undefined : 'Meu Perfil'}
          title="Meu Perfil"
        >
          <Icon name="person" />
          {open && <span>Meu Perfil</span>}
        </Link>
        <button
          type="button"
          className="menu-bottom-link menu-sign-out"
          aria-label={open ? undefined : 'Sair'}
          title="Sair"
          onClick={onSignOut}
        >
          <Icon name="logout" />
          {open && <span>Sair</span>}
        </button>
      </div>
    </nav>
  );
}

function MenuEntries({ items, favorites }: { items: MenuItem[]; favorites: string[] }) {
  return (
    <ul className="menu-list">
      {items
        .filter((item) => item.showInMenu)
        .map((item) =>
          item.children ? (
            <MenuGroup key={item.sessionTitle ?? item.label} item={item} favorites={favorites} />
          ) : (
            <MenuLeaf key={item.route?.slug ?? item.label} item={item} favorite={favorites.includes(String(item.route?.slug))} />
          ),
        )}
    </ul>
  );
}

function MenuGroup({ item, favorites }: { item: MenuItem; favorites: string[] }) {
  const dispatch = useAppDispatch();
  const title = item.sessionTitle ?? item.label;
  const open = useAppSelector((state) => selectMenuGroupOpen(state, title));
  return (
    <li className="menu-group">
      <button
        type="button"
        className={`menu-group-title${open ? ' menu-group-title-open' : ''}`}
        aria-expanded={open}
        onClick={() => dispatch(menuGroupToggled(title))}
      >
        <span>{title}</span>
        <Icon name="expandMore" />
      </button>
      {open && <MenuEntries items={item.children ?? []} favorites={favorites} />}
    </li>
  );
}

function MenuLeaf({ item, favorite }: { item: MenuItem; favorite: boolean }) {
  const [saveFavorite, saving] = useSaveFavoriteMutation();
  const [deleteFavorite, deleting] = useDeleteFavoriteMutation();
  const route = item.route;
  if (!route) return null;

  const toggleFavorite = async () => {
    try {
      // The favourites list is fetched again after either call (tag invalidation).
      if (favorite) await deleteFavorite(String(route.slug)).unwrap();
      else await saveFavorite(String(route.slug)).unwrap();
    } catch {
      // The base query already told the user.
    }
  };

  return (
    <li className="menu-item">
      <NavLink
        to={dashboardPath(route)}
        end={route.isIndex}
        className={({ isActive }) => `menu-link${isActive ? ' menu-link-active' : ''}`}
      >
        {item.icon && <Icon name={item.icon} />}
        <span>{item.label}</span>
      </NavLink>
      <button
        type="button"
        className={`favorite-toggle${favorite ? ' favorite-toggle-on' : ''}`}
        aria-pressed={favorite}
        disabled={saving.isLoading || deleting.isLoading}
        onClick={toggleFavorite}
      >
        <Icon name={favorite ? 'star' : 'starOutline'} size={18} />
        {/* Named by text, not aria-label: a page's search by label ('Plano', 'Empresa') is
            after its own fields, and the expanded menu is on every desktop page. */}
        <span className="visually-hidden">{`${favorite ? 'Desfavoritar' : 'Favoritar'} ${item.label}`}</span>
      </button>
    </li>
  );
}
