// Money in BRL (spec 01 §5: stored as cents divided by 100, shown in BRL format).

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** 'R$ 35,00' (with the non-breaking space Intl uses). */
export const formatBRL = (value: number) => brl.format(value);

/** What a money input holds for the digits typed: cents divided by 100. */
export function moneyFromDigits(text: string): number {
  const digits = text.replace(/\D/g, '').replace(/^0+/, '');
  return digits ? Number(digits) / 100 : 0;
}
