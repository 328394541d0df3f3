import { describe, expect, it } from 'vitest';
import {
  addDays,
  clockText,
  formatDateBR,
  isPast,
  longDateBR,
  minutesNow,
  monthWeeks,
  todayIso,
  weekdayDateBR,
  weekdayOf,
} from './dates';

// 2026-11-24T02:30:00Z is 23:30 on the 23rd in Brazil (UTC-3).
const lateEvening = Date.parse('2026-11-24T02:30:00Z');

describe('dates at UTC-3', () => {
  it('reads today and the clock on the unit clock, whatever the machine zone', () => {
    expect(todayIso(lateEvening)).toBe('2026-11-23');
    expect(clockText(lateEvening)).toBe('23:30:00');
    expect(minutesNow(lateEvening)).toBe(23 * 60 + 30);
    expect(todayIso(Date.parse('2026-11-24T03:00:00Z'))).toBe('2026-11-24');
  });

  it("reads each unit's clock on its own zone (issue 39)", () => {
    // 02:30Z: 23:30 in São Paulo, 22:30 in Manaus, 21:30 in Rio Branco, 00:30 in Noronha.
    expect(clockText(lateEvening, 'America/Manaus')).toBe('22:30:00');
    expect(clockText(lateEvening, 'America/Rio_Branco')).toBe('21:30:00');
    expect(todayIso(lateEvening, 'America/Noronha')).toBe('2026-11-24');
    expect(minutesNow(lateEvening, 'America/Noronha')).toBe(30);
    // São Paulo had summer time until 2019: 15/01/2018 12:00Z was 10:00 there.
    expect(clockText(Date.parse('2018-01-15T12:00:00Z'), 'America/Sao_Paulo')).toBe('10:00:00');
    // A zone the browser does not know reads as São Paulo's.
    expect(clockText(lateEvening, 'Nowhere/Never')).toBe('23:30:00');
  });

  it('moves days across months and years', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(weekdayOf('2026-11-22')).toBe(0);
  });

  it('writes dates in pt-BR', () => {
    expect(formatDateBR('2026-11-24')).toBe('24/11/2026');
    expect(longDateBR('2026-03-01')).toBe('1 de março de 2026');
    expect(weekdayDateBR('2026-11-24')).toBe('terça-feira, 24 de novembro de 2026');
  });

  it('lays out a month in weeks from Sunday', () => {
    const weeks = monthWeeks(2026, 11);
    // 1 November 2026 is a Sunday.
    expect(weeks[0][0]).toBe('2026-11-01');
    expect(weeks.at(-1)).toEqual(['2026-11-29', '2026-11-30', null, null, null, null, null]);
    const february = monthWeeks(2026, 2);
    expect(february[0]).toEqual(['2026-02-01', '2026-02-02', '2026-02-03', '2026-02-04', '2026-02-05', '2026-02-06', '2026-02-07']);
    expect(monthWeeks(2026, 9)[0].slice(0, 3)).toEqual([null, null, '2026-09-01']);
  });

  it('tells past appointments by the unit clock', () => {
    expect(isPast('2026-11-23', '23:00:00', lateEvening)).toBe(true);
    expect(isPast('2026-11-23', '23:45:00', lateEvening)).toBe(false);
    expect(isPast('2026-11-22', '23:59:00', lateEvening)).toBe(true);
    expect(isPast('2026-11-24', '00:15:00', lateEvening)).toBe(false);
  });
});
