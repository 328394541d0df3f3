import { describe, expect, it } from 'vitest';
import {
  formatPhone,
  isValidCnpj,
  isValidCpf,
  isValidTime,
  maskCep,
  maskCnpj,
  maskCpf,
  maskPhone,
  maskTime,
} from './masks';

describe('masks', () => {
  it('formats documents, postal codes and times as they are typed', () => {
    expect(maskCpf('529')).toBe('529');
    expect(maskCpf('5299822')).toBe('529.982.2');
    expect(maskCpf('52998224725999')).toBe('529.982.247-25');
    expect(maskCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(maskCep('01310a100')).toBe('01.310-100');
    expect(maskCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(maskCnpj('12ABC34501DEXY')).toBe('12.ABC.345/01DE');
    expect(maskTime('930')).toBe('93:0');
    expect(maskTime('0930')).toBe('09:30');
  });

  it('formats phones of 10 and 11 digits', () => {
    expect(maskPhone('1133334444')).toBe('(11) 3333-4444');
    expect(maskPhone('11987654321')).toBe('(11) 98765-4321');
    expect(maskPhone('(11) 98765-43219')).toBe('(11) 98765-4321');
    expect(formatPhone('11987654321')).toBe('(11) 98765-4321');
    expect(formatPhone('1133334444')).toBe('(11) 3333-4444');
    expect(formatPhone('123')).toBe('123');
    expect(formatPhone(null)).toBe('');
  });

  it('checks CPF digits (modulus 11), refusing repeated digits', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('52998224724')).toBe(false);
    expect(isValidCpf('111.111.111-11')).toBe(false);
    expect(isValidCpf('5299822472')).toBe(false);
  });

  it('checks CNPJ digits', () => {
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('11.222.333/0001-82')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
    // Receita Federal's published example of the alphanumeric CNPJ.
    expect(isValidCnpj('12.ABC.345/01DE-35')).toBe(true);
    expect(isValidCnpj('12.ABC.345/01DE-36')).toBe(false);
    expect(isValidCnpj('12.ABC.345/01DE-3X')).toBe(false);
  });

  it('takes 24-hour HH:MM', () => {
    expect(isValidTime('00:00')).toBe(true);
    expect(isValidTime('23:59')).toBe(true);
    expect(isValidTime('24:00')).toBe(false);
    expect(isValidTime('9:30')).toBe(false);
    expect(isValidTime('12:60')).toBe(false);
  });
});
