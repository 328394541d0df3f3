import { describe, expect, it } from 'vitest';
import { queryString } from './queryString';

describe('queryString', () => {
  it('keeps the parameters in the order given', () => {
    expect(queryString({ page: 1, pageSize: 10, search: 'ana' })).toBe('page=1&pageSize=10&search=ana');
  });

  it('leaves out null, undefined and empty values, but sends 0', () => {
    expect(queryString({ a: null, b: undefined, c: '', status: 0, d: 'x' })).toBe('status=0&d=x');
    expect(queryString({ a: null, b: undefined })).toBe('');
  });

  it('encodes values as a URL query', () => {
    expect(queryString({ search: 'João & Cia', idServices: '[1,2]' })).toBe(
      'search=Jo%C3%A3o+%26+Cia&idServices=%5B1%2C2%5D',
    );
  });
});
