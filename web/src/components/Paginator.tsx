import { pageCount, pageItems, rangeText } from '@/lib/paginator';

interface PaginatorProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}

/** 'Mostrando X à Y de Z resultados', Anterior / Próximo and the page window. */
export function Paginator({ page, pageSize, total, onPage }: PaginatorProps) {
  const pages = pageCount(total, pageSize);
  return (
    <nav className="paginator" aria-label="Paginação">
      <span className="paginator-range">{rangeText(page, pageSize, total)}</span>
      <div className="paginator-pages">
        <button type="button" className="button button-secondary button-small" aria-label="Página anterior" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Anterior
        </button>
        {pageItems(page, pages).map((item, index) =>
          item === 'ellipsis' ? (
            <span key={`e${index}`} className="paginator-ellipsis" aria-hidden="true">
              …
            </span>
          ) : (
            <button
              key={item}
              type="button"
              className={`paginator-page${item === page ? ' paginator-page-current' : ''}`}
              aria-label={`Página ${item}`}
              aria-current={item === page ? 'page' : undefined}
              onClick={() => onPage(item)}
            >
              {item}
            </button>
          ),
        )}
        <button
          type="button"
          className="button button-secondary button-small"
          aria-label="Próxima página"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          Próximo
        </button>
      </div>
    </nav>
  );
}
