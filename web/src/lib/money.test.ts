import { describe, expect, it } from 'vitest';
import { formatBRL, moneyFromDigits } from './money';

const nbsp = (text: string) => text.replace(/\u00a0/g, ' ');

describe('money', () => {
  it('shows reais in BRL format', () => {
    expect(nbsp(formatBRL(35))).toBe('R$ 35,00');
    expect(nbsp(formatBRL(1234.5))).toBe('R$ 1.234,50');
  });

  it('reads typed digits as cents divided by 100', () => {
    expect(moneyFromDigits('3')).toBe(0.03);
    expect(moneyFromDigits('R$ 0,035')).toBe(0.35);
    expect(moneyFromDigits('R$ 35,001')).toBe(350.01);
    expect(moneyFromDigits('')).toBe(0);
  });
});
