import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Icon } from '@/components/Icon';

export interface FormPageFrameProps {
  title: string;
  /** Where 'Voltar' goes when there is no earlier page in this tab's history. */
  listPath: string;
  /** The page's own class, next to `page` (e.g. 'client-form-page'). */
  className: string;
  children: ReactNode;
}

/** A form page: the header with 'Voltar' and the title, then the page's content. */
export function FormPageFrame({ title, listPath, className, children }: FormPageFrameProps) {
  const navigate = useNavigate();
  // Opened in a new tab (the agenda's 'Novo cliente' for roles without the inline form), there is nothing to go back to.
  const back = () => ((window.history.state as { idx?: number } | null)?.idx ? navigate(-1) : navigate(listPath));
  return (
    <section className={`page ${className}`}>
      <header className="page-header">
        <button type="button" className="icon-button" aria-label="Voltar" onClick={back}>
          <Icon name="arrowBack" />
        </button>
        <h1 className="page-title">{title}</h1>
      </header>
      {children}
    </section>
  );
}

/** The frame of an edit page whose record is still loading, or failed to load. */
export function FormPagePending({ isError, ...frame }: Omit<FormPageFrameProps, 'children'> & { isError: boolean }) {
  return (
    <FormPageFrame {...frame}>
      <p className="empty">{isError ? 'Nenhum registro encontrado' : 'Carregando...'}</p>
    </FormPageFrame>
  );
}
