// Paginator rules (spec 01 §2 'Reusable pieces', §9).

/** Pages shown on each side of the current one. */
export const PAGE_WINDOW = 2;
/** Pages always kept at each end. */
export const PAGE_EDGE = 2;

export type PageItem = number | 'ellipsis';

export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

/**
 * The page buttons: the first 2 and last 2 pages, 2 pages each side of the current one,
 * and an ellipsis wherever pages are left out.
 */
export function pageItems(current: number, pages: number): PageItem[] {
  const kept = new Set<number>();
  for (let page = 1; page <= Math.min(PAGE_EDGE, pages); page += 1) kept.add(page);
  for (let page = Math.max(1, pages - PAGE_EDGE + 1); page <= pages; page += 1) kept.add(page);
  for (let page = current - PAGE_WINDOW; page <= current + PAGE_WINDOW; page += 1) {
    if (page >= 1 && page <= pages) kept.add(page);
  }
  const items: PageItem[] = [];
  let previous = 0;
  for (const page of [...kept].sort((a, b) => a - b)) {
    if (page > previous + 1) items.push('ellipsis');
    items.push(page);
    previous = page;
  }
  return items;
}

/** 'Mostrando X à Y de Z resultados'. */
export function rangeText(page: number, pageSize: number, total: number): string {
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);
  return `Mostrando ${first} à ${last} de ${total} resultados`;
}
