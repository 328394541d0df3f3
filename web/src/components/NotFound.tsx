import { Link } from 'react-router';

interface NotFoundProps {
  /** Where the link leads back to. */
  homePath?: string;
}

export function NotFound({ homePath = '/' }: NotFoundProps) {
  return (
    <section className="page not-found">
      <h1 className="page-title">Página não encontrada</h1>
      <Link to={homePath}>Voltar ao início</Link>
    </section>
  );
}
