import { describe, expect, it } from 'vitest';
import { clampInstant, instantOf, openingInstant, pastViewText, readInstant, shiftInstant } from './pastView';

// 12:34:56 UTC is 09:34:56 on the unit's clock (UTC-3).
const NOW = Date.parse('2026-11-24T12:34:56Z');

describe('past view instants', () => {
  it("reads now on the unit's clock, to the second, and opens an hour earlier", () => {
    expect(instantOf(NOW)).toBe('2026-11-24T09:34:56');
    expect(openingInstant(NOW)).toBe('2026-11-24T08:34:56');
    // Just after midnight UTC is still the previous evening at the unit.
    expect(instantOf(Date.parse('2026-12-01T01:15:00Z'))).toBe('2026-11-30T22:15:00');
  });

  it('steps across days and months, and never past now', () => {
    expect(shiftInstant('2026-11-24T08:34:00', -24 * 60, NOW)).toBe('2026-11-23T08:34:00');
    expect(shiftInstant('2026-11-01T00:30:10', -60, NOW)).toBe('2026-10-31T23:30:10');
    expect(shiftInstant('2026-11-24T09:00:00', 60, NOW)).toBe('2026-11-24T09:34:56');
    expect(shiftInstant('2026-11-23T10:00:00', 24 * 60, NOW)).toBe('2026-11-24T09:34:56');
    expect(clampInstant('2027-01-01T00:00:00', NOW)).toBe('2026-11-24T09:34:56');
    expect(clampInstant('2026-11-20T07:05:00', NOW)).toBe('2026-11-20T07:05:00');
  });

  it("reads the control's value, whose seconds are left out when zero", () => {
    expect(readInstant('2026-11-24T08:34:05')).toBe('2026-11-24T08:34:05');
    expect(readInstant('2026-11-24T08:34')).toBe('2026-11-24T08:34:00');
    expect(readInstant('2026-11-24')).toBeNull();
    expect(readInstant('2026-13-40T08:34')).toBeNull();
    expect(readInstant('')).toBeNull();
  });

  it('says which day, at which instant, and that nothing can change', () => {
    expect(pastViewText('2026-11-27', '2026-11-24T08:05:30')).toBe(
      'A agenda de 27/11/2026 como estava em 24/11/2026 às 08:05:30. Somente leitura: nada pode ser alterado aqui.',
    );
  });
});
