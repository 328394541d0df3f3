import { describe, expect, it } from 'vitest';
import { pageCount, pageItems, rangeText } from './paginator';

describe('paginator', () => {
  it('shows every page when there are few', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageItems(1, 7)).toEqual([1, 2, 3, 'ellipsis', 6, 7]);
  });

  it('keeps the first 2 and last 2 pages and 2 around the current one', () => {
    expect(pageItems(10, 20)).toEqual([1, 2, 'ellipsis', 8, 9, 10, 11, 12, 'ellipsis', 19, 20]);
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 'ellipsis', 19, 20]);
    expect(pageItems(20, 20)).toEqual([1, 2, 'ellipsis', 18, 19, 20]);
    expect(pageItems(4, 20)).toEqual([1, 2, 3, 4, 5, 6, 'ellipsis', 19, 20]);
    expect(pageItems(5, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, 'ellipsis', 19, 20]);
    expect(pageItems(6, 20)).toEqual([1, 2, 'ellipsis', 4, 5, 6, 7, 8, 'ellipsis', 19, 20]);
  });

  it('counts pages of the page size, at least one', () => {
    expect(pageCount(0, 5)).toBe(1);
    expect(pageCount(5, 5)).toBe(1);
    expect(pageCount(6, 5)).toBe(2);
  });

  it("says 'Mostrando X à Y de Z resultados'", () => {
    expect(rangeText(1, 5, 12)).toBe('Mostrando 1 à 5 de 12 resultados');
    expect(rangeText(3, 5, 12)).toBe('Mostrando 11 à 12 de 12 resultados');
    expect(rangeText(1, 5, 0)).toBe('Mostrando 0 à 0 de 0 resultados');
  });
});
