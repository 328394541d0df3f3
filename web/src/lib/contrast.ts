/**
 * Colour contrast after WCAG 2.x: relative luminance, contrast ratio, and the two ways the
 * agenda keeps text readable on a professional's colour (pick black or white text, or darken
 * the colour until it reads on white).
 */

/** WCAG AA for normal text. */
export const AA_TEXT = 4.5;

/** The dark and light text colours the app uses on coloured backgrounds. */
export const DARK_TEXT = '#111827';
export const LIGHT_TEXT = '#FFFFFF';

type Rgb = [number, number, number];

/** `#rgb` or `#rrggbb` (case-insensitive) as 0-255 channels; null for anything else. */
export function parseHex(color: string): Rgb | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!match) return null;
  const hex = match[1].length === 3 ? [...match[1]].map((digit) => digit + digit).join('') : match[1];
  return [0, 2, 4].map((start) => parseInt(hex.slice(start, start + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('').toUpperCase()}`;

/** Relative luminance (0 for black, 1 for white) of a hex colour. */
export function relativeLuminance(color: string): number {
  const rgb = parseHex(color);
  if (!rgb) throw new Error(`Not a hex colour: ${color}`);
  const [r, g, b] = rgb.map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio between two hex colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The text colour (the app's dark text or white) that reads best on `background`; pure black
 * for the few mid tones where neither reaches AA (one of black and white always does).
 */
export function readableTextColor(background: string): string {
  const dark = contrastRatio(background, DARK_TEXT);
  const light = contrastRatio(background, LIGHT_TEXT);
  if (Math.max(dark, light) < AA_TEXT) return '#000000';
  return dark >= light ? DARK_TEXT : LIGHT_TEXT;
}

/**
 * `color` mixed with black, in small steps, until it reaches `minimum` against `against`
 * (white by default): a professional's colour as text or border on a light background.
 */
export function darkenToContrast(color: string, against = LIGHT_TEXT, minimum = AA_TEXT): string {
  const rgb = parseHex(color);
  if (!rgb) throw new Error(`Not a hex colour: ${color}`);
  for (let step = 0; step <= 20; step += 1) {
    const candidate = toHex(rgb.map((channel) => (channel * (20 - step)) / 20) as Rgb);
    if (contrastRatio(candidate, against) >= minimum) return candidate;
  }
  return '#000000';
}

/** Whether `color` is a hex colour these helpers accept. */
export const isHexColor = (color: string | null | undefined): color is string => !!color && parseHex(color) !== null;
