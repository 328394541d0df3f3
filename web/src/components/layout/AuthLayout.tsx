import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Icon } from '../Icon';

interface AuthLayoutProps {
  title: string;
  children: ReactNode;
  /** Show the back arrow (public pages show it when the history is longer than 2). */
  showBack?: boolean;
}

/** Frame of the public pages: brand panel and a card with the page title. */
export function AuthLayout({ title, children, showBack = false }: AuthLayoutProps) {
  const navigate = useNavigate();
  return (
    <div className="auth">
      <aside className="auth-brand" aria-hidden="true">
        <Icon name="scissors" size={56} />
        <span className="auth-brand-name">Navalha</span>
      </aside>
      <main className="auth-main">
        <div className="auth-card">
          <header className="auth-header">
            {showBack && (
              <button type="button" className="icon-button" aria-label="Voltar" onClick={() => navigate(-1)}>
                <Icon name="arrowBack" />
              </button>
            )}
            <h1 className="auth-title">{title}</h1>
          </header>
          {children}
        </div>
      </main>
    </div>
  );
}

/** The back arrow shows when the browser history is longer than 2 entries. */
export const hasBackHistory = () => window.history.length > 2;
