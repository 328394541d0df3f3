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

// python-stdnum's published vectors (tests/test_br_cnpj.doctest, test_br_cpf.doctest), the
// same the server's tests use, plus Receita Federal's alphanumeric example.
describe('documents against python-stdnum test vectors', () => {
  it('accepts every valid CNPJ and CPF and refuses the invalid ones', () => {
    const validCnpjs = [
      '07.195.358/0001-66', '08.807.432/0001-10', '11.015.248/0001-42', '11.017.153/0001-68',
      '11.017.153/0002-49', '11.017.153/0003-20', '11.017.153/0005-91', '11.980.459/0001-15',
      '14.847.283/0001-16', '14.847.283/0002-05', '14.847.283/0003-88', '14.847.283/0004-69',
      '14.847.283/0005-40', '18.090.575/0001-08', '18.090.575/0002-99', '18.090.575/0003-70',
      '18.090.575/0004-50', '18.090.575/0005-31', '22.610.961/0001-50', '44.407.989/0001-28',
      '47.080.619/0001-17', '53.612.734/0001-98', '61882613000194', '69.435.154/0001-02',
      '16.727.230/0001-97', '12.ABC.345/01DE-35',
    ];
    expect(validCnpjs.filter((cnpj) => !isValidCnpj(cnpj))).toEqual([]);
    expect(isValidCnpj('16.727.230/0001-98')).toBe(false);
    expect(isValidCpf('390.533.447-05')).toBe(true);
    expect(isValidCpf('39053344705')).toBe(true);
    expect(isValidCpf('231.002.999-00')).toBe(false);
  });
});
