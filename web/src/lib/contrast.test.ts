import { describe, expect, it } from 'vitest';
import {
  AA_TEXT,
  DARK_TEXT,
  LIGHT_TEXT,
  contrastRatio,
  darkenToContrast,
  isHexColor,
  parseHex,
  readableTextColor,
  relativeLuminance,
} from './contrast';

/** command-api/src/seed.rs PROFESSIONALS, in order. The 12 colours of the agenda palette
 * are checked in features/professionals/palette.test.ts. */
const DEMO_COLOURS = ['#9E9E9E', '#F48FB1', '#1565C0', '#FF9800', '#2E7D32', '#7B1FA2', '#81D4FA', '#D32F2F'];

describe('contrast', () => {
  it('parses hex colours and computes luminance and ratios as WCAG does', () => {
    expect(parseHex('#fff')).toEqual([255, 255, 255]);
    expect(parseHex('1565C0')).toEqual([0x15, 0x65, 0xc0]);
    expect(parseHex('red')).toBeNull();
    expect(isHexColor('')).toBe(false);
    expect(isHexColor('#F48FB1')).toBe(true);
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#FFFFFF')).toBe(1);
    expect(contrastRatio('#000', '#fff')).toBe(21);
    expect(contrastRatio('#fff', '#000')).toBe(21);
    // The classic limits: #767676 just passes AA on white, #777777 just fails.
    expect(contrastRatio('#767676', '#FFFFFF')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#FFFFFF')).toBeLessThan(AA_TEXT);
  });

  it('white text on the demo colours was below AA (the reported 2.7 to 2.9:1 and worse)', () => {
    expect(contrastRatio(LIGHT_TEXT, '#9E9E9E')).toBeCloseTo(2.68, 1);
    expect(contrastRatio(LIGHT_TEXT, '#FF9800')).toBeLessThan(AA_TEXT);
    expect(contrastRatio(LIGHT_TEXT, '#F48FB1')).toBeLessThan(AA_TEXT);
  });

  it.each(DEMO_COLOURS)('picks a text colour that reaches AA on %s', (colour) => {
    const text = readableTextColor(colour);
    expect([DARK_TEXT, LIGHT_TEXT, '#000000']).toContain(text);
    expect(contrastRatio(text, colour)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('keeps white text on the dark colours and uses dark text on the light ones', () => {
    expect(readableTextColor('#1565C0')).toBe(LIGHT_TEXT);
    expect(readableTextColor('#7B1FA2')).toBe(LIGHT_TEXT);
    expect(readableTextColor('#000000')).toBe(LIGHT_TEXT);
    expect(readableTextColor('#FFEB3B')).toBe(DARK_TEXT);
    expect(readableTextColor('#9E9E9E')).toBe(DARK_TEXT);
    expect(readableTextColor('#FF9800')).toBe(DARK_TEXT);
    // Rosa: neither the app's dark text nor white reaches 4.5:1, black does.
    expect(readableTextColor('#E91E63')).toBe('#000000');
  });

  it.each(DEMO_COLOURS)('darkens %s until it reads on white, keeping its hue', (colour) => {
    const dark = darkenToContrast(colour);
    expect(contrastRatio(dark, '#FFFFFF')).toBeGreaterThanOrEqual(AA_TEXT);
    const [r, g, b] = parseHex(colour)!;
    const [dr, dg, db] = parseHex(dark)!;
    // Mixed with black only: each channel shrinks by about the same factor.
    const factor = Math.max(r, g, b) === 0 ? 0 : Math.max(dr, dg, db) / Math.max(r, g, b);
    for (const [original, darker] of [[r, dr], [g, dg], [b, db]]) {
      expect(darker).toBeLessThanOrEqual(original);
      expect(Math.abs(darker - original * factor)).toBeLessThanOrEqual(1);
    }
  });

  it('leaves a colour that already reads on white as it is', () => {
    expect(darkenToContrast('#1565C0')).toBe('#1565C0');
    expect(darkenToContrast('#000000')).toBe('#000000');
  });
});
