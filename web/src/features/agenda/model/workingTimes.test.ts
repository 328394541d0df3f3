import { describe, expect, it } from 'vitest';
import { minutesOf } from '@/lib/dates';
import type { BlockedTime, WorkingDay } from './types';
import {
  BLOCKED_MESSAGE,
  CLOSED_MESSAGE,
  OFF_HOURS_MESSAGE,
  PAST_MESSAGE,
  blockedSpanOn,
  columnShades,
  shadeAt,
  slotRefusal,
  unitMinutesNow,
  type ColumnRules,
} from './workingTimes';

// Tuesday 01/12/2026: Diego (4) works 09:00-12:00 and 13:00-19:00, the unit opens 09:00-21:00.
const TUESDAY = '2026-12-01';
const day = (overrides: Partial<WorkingDay> = {}): WorkingDay => ({
  Date: TUESDAY,
  Opening: { Start: '09:00', End: '21:00' },
  Holidays: [],
  Professionals: [
    { IdProfessional: 4, Working: [{ Start: '09:00', End: '12:00' }, { Start: '13:00', End: '19:00' }] },
    { IdProfessional: 5, Working: [] },
  ],
  ...overrides,
});
const blockedTime = (overrides: Partial<BlockedTime> = {}): BlockedTime => ({
  IdDayOff: 1,
  IdProfessional: 4,
  Description: 'Férias',
  AllDay: true,
  DateStart: TUESDAY,
  DateEnd: TUESDAY,
  StartTime: null,
  EndTime: null,
  ...overrides,
});
/** Diego's column on a future Tuesday, unless told otherwise. */
const rules = (overrides: Partial<ColumnRules> = {}): ColumnRules => ({
  date: TUESDAY,
  today: '2026-11-27',
  nowMinutes: minutesOf('20:48'),
  idProfessional: 4,
  day: day(),
  blocked: [],
  ...overrides,
});
const shades = (r: ColumnRules) => columnShades(r).map(({ start, end, kind, label }) => [hh(start), hh(end), kind, label].filter(Boolean).join(' '));
const hh = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(Math.floor(minutes % 60)).padStart(2, '0')}`;

describe('a click on a time nobody can take (issue 45)', () => {
  it("says the professional's break and the end of their day are outside their hours", () => {
    expect(slotRefusal(rules(), '10:00')).toBeNull();
    expect(slotRefusal(rules(), '11:45')).toBeNull();
    expect(slotRefusal(rules(), '12:00')).toBe(OFF_HOURS_MESSAGE);
    expect(slotRefusal(rules(), '12:15')).toBe(OFF_HOURS_MESSAGE);
    expect(slotRefusal(rules(), '13:00')).toBeNull();
    expect(slotRefusal(rules(), '19:00')).toBe(OFF_HOURS_MESSAGE);
    // Someone who does not work that day.
    expect(slotRefusal(rules({ idProfessional: 5 }), '10:00')).toBe(OFF_HOURS_MESSAGE);
  });

  it('says the unit is closed on a day without opening hours and outside them', () => {
    expect(slotRefusal(rules({ day: day({ Opening: null }) }), '10:00')).toBe(CLOSED_MESSAGE);
    const short = rules({ day: day({ Opening: { Start: '10:00', End: '18:00' } }) });
    expect(slotRefusal(short, '09:45')).toBe(CLOSED_MESSAGE);
    expect(slotRefusal(short, '10:00')).toBeNull();
    expect(slotRefusal(short, '18:00')).toBe(CLOSED_MESSAGE);
    // Closed says more than the professional's hours.
    expect(slotRefusal(rules({ idProfessional: 5, day: day({ Opening: null }) }), '10:00')).toBe(CLOSED_MESSAGE);
  });

  it('says a holiday, whole or a window, and a day off or blocked time, are days the professional does not work', () => {
    expect(slotRefusal(rules({ day: day({ Holidays: [{ Description: 'Natal', Window: null }] }) }), '10:00')).toBe(BLOCKED_MESSAGE);
    const afternoon = rules({ day: day({ Holidays: [{ Description: 'Ponto facultativo', Window: { Start: '14:00', End: '18:00' } }] }) });
    expect(slotRefusal(afternoon, '13:45')).toBeNull();
    expect(slotRefusal(afternoon, '14:00')).toBe(BLOCKED_MESSAGE);
    expect(slotRefusal(afternoon, '18:00')).toBeNull();
    expect(slotRefusal(rules({ blocked: [blockedTime()] }), '10:00')).toBe(BLOCKED_MESSAGE);
    const window = rules({ blocked: [blockedTime({ AllDay: false, StartTime: '16:00', EndTime: '17:00' })] });
    expect(slotRefusal(window, '15:45')).toBeNull();
    expect(slotRefusal(window, '16:45')).toBe(BLOCKED_MESSAGE);
    expect(slotRefusal(window, '17:00')).toBeNull();
    // Another professional's day off is not Diego's.
    expect(slotRefusal(rules({ blocked: [blockedTime({ IdProfessional: 3 })] }), '10:00')).toBeNull();
  });

  it('says a start before now is past, to the second, before any other reason', () => {
    const today = rules({ today: TUESDAY, nowMinutes: minutesOf('10:20') + 0.5 });
    expect(slotRefusal(today, '10:15')).toBe(PAST_MESSAGE);
    expect(slotRefusal(today, '10:30')).toBeNull();
    // At 10:30:00 sharp the 10:30 start has not begun; a second later it has.
    expect(slotRefusal(rules({ today: TUESDAY, nowMinutes: minutesOf('10:30') }), '10:30')).toBeNull();
    expect(slotRefusal(rules({ today: TUESDAY, nowMinutes: minutesOf('10:30') + 1 / 60 }), '10:30')).toBe(PAST_MESSAGE);
    // A past day is past all day, lunch and closed hours included.
    expect(slotRefusal(rules({ today: '2026-12-02' }), '12:15')).toBe(PAST_MESSAGE);
    expect(slotRefusal(rules({ today: '2026-12-02', day: day({ Opening: null }) }), '10:00')).toBe(PAST_MESSAGE);
  });

  it('knows only the past and the days off while the working times are unread, and does not judge a professional they do not list', () => {
    expect(slotRefusal(rules({ day: undefined }), '12:15')).toBeNull();
    expect(slotRefusal(rules({ day: undefined, blocked: [blockedTime()] }), '12:15')).toBe(BLOCKED_MESSAGE);
    expect(slotRefusal(rules({ day: undefined, today: '2026-12-02' }), '10:00')).toBe(PAST_MESSAGE);
    expect(slotRefusal(rules({ idProfessional: 9 }), '12:15')).toBeNull();
  });
});

describe("the grid's shading (issue 45)", () => {
  it("shades a working day's break and the hours after the professional's day", () => {
    expect(shades(rules())).toEqual(['12:00 13:00 off', '19:00 21:00 off']);
    expect(shades(rules({ idProfessional: 5 }))).toEqual(['09:00 21:00 off']);
  });

  it('shades the past up to now, in its own kind, then the rest as on any day', () => {
    expect(shades(rules({ today: TUESDAY, nowMinutes: minutesOf('12:30') }))).toEqual(['09:00 12:30 past', '12:30 13:00 off', '19:00 21:00 off']);
    expect(shades(rules({ today: TUESDAY, nowMinutes: minutesOf('08:00') }))).toEqual(['12:00 13:00 off', '19:00 21:00 off']);
    expect(shades(rules({ today: '2026-12-02' }))).toEqual(['09:00 21:00 past']);
  });

  it('shades a closed day, a holiday with its name, and a day off (drawn as its blocked time)', () => {
    expect(shades(rules({ day: day({ Opening: null }) }))).toEqual(['09:00 21:00 closed']);
    expect(shades(rules({ day: day({ Opening: { Start: '10:00', End: '20:00' } }) }))).toEqual([
      '09:00 10:00 closed',
      '12:00 13:00 off',
      '19:00 20:00 off',
      '20:00 21:00 closed',
    ]);
    expect(shades(rules({ day: day({ Holidays: [{ Description: 'Natal', Window: null }] }) }))).toEqual(['09:00 21:00 holiday Natal']);
    expect(shades(rules({ day: day({ Holidays: [{ Description: 'Jogo do Brasil', Window: { Start: '15:00', End: '17:00' } }] }) }))).toEqual([
      '12:00 13:00 off',
      '15:00 17:00 holiday Jogo do Brasil',
      '19:00 21:00 off',
    ]);
    expect(shades(rules({ blocked: [blockedTime({ AllDay: false, StartTime: '16:00', EndTime: '17:00' })] }))).toEqual([
      '12:00 13:00 off',
      '16:00 17:00 dayOff',
      '19:00 21:00 off',
    ]);
  });

  it('agrees with a click at every quarter hour', () => {
    const r = rules({ today: TUESDAY, nowMinutes: minutesOf('10:07'), day: day({ Holidays: [{ Description: 'X', Window: { Start: '17:30', End: '18:00' } }] }) });
    const found = columnShades(r);
    for (let minute = 9 * 60; minute < 21 * 60; minute += 15) {
      const shade = found.find((s) => s.start <= minute && minute < s.end);
      expect(shade?.kind ?? null, `${minute}`).toBe(shadeAt(r, minute));
    }
  });
});

describe('a day off on each of its days', () => {
  it('blocks an all-day one whole, and runs a window from the first day at its start to the last at its end', () => {
    expect(blockedSpanOn(blockedTime(), TUESDAY)).toEqual({ start: 0, end: 1440 });
    expect(blockedSpanOn(blockedTime(), '2026-12-02')).toBeNull();
    const trip = blockedTime({ AllDay: false, DateStart: '2026-12-01', DateEnd: '2026-12-03', StartTime: '14:00', EndTime: '11:00' });
    expect(blockedSpanOn(trip, '2026-12-01')).toEqual({ start: 840, end: 1440 });
    expect(blockedSpanOn(trip, '2026-12-02')).toEqual({ start: 0, end: 1440 });
    expect(blockedSpanOn(trip, '2026-12-03')).toEqual({ start: 0, end: 660 });
  });
});

describe("the unit's clock", () => {
  it('reads minutes since midnight on the unit, seconds as a fraction', () => {
    // 23:48:30 UTC is 20:48:30 in São Paulo.
    expect(unitMinutesNow(Date.parse('2026-11-27T23:48:30Z'), 'America/Sao_Paulo')).toBe(20 * 60 + 48.5);
  });
});
