import { describe, expect, it } from 'vitest';
import { AA_TEXT, DARK_TEXT, LIGHT_TEXT, contrastRatio, darkenToContrast, readableTextColor } from '@/lib/contrast';
import { PALETTE_HEX } from './palette';

// The agenda draws cards in these colours, with text in readableTextColor and borders or
// labels on white in darkenToContrast (lib/contrast.test.ts covers the functions themselves).
describe('agenda palette', () => {
  it.each(PALETTE_HEX)('gets a text colour that reaches AA on %s', (colour) => {
    const text = readableTextColor(colour);
    expect([DARK_TEXT, LIGHT_TEXT, '#000000']).toContain(text);
    expect(contrastRatio(text, colour)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it.each(PALETTE_HEX)('darkens %s until it reads on white', (colour) => {
    expect(contrastRatio(darkenToContrast(colour), '#FFFFFF')).toBeGreaterThanOrEqual(AA_TEXT);
  });
});
