import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLOCK_OFFSET_MS, daysAfter, unitInstant, unitToday, workingDayAhead } from './clock';

// The end-to-end tests' dates (issue 38): on any day and hour the suite runs.

// The machine's time that reads `instant` on the clock, wherever `./navalha test --at` placed it.
const at = (instant: string) => vi.setSystemTime(new Date(Date.parse(instant) - CLOCK_OFFSET_MS));

describe('the end-to-end clock', () => {
  afterEach(() => vi.useRealTimers());

  it('counts days across months, years and 29 February', () => {
    expect(daysAfter('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysAfter('2028-03-01', -1)).toBe('2028-02-29');
    expect(daysAfter('2027-03-01', -1)).toBe('2027-02-28');
    expect(daysAfter('2026-12-08', -1)).toBe('2026-12-07');
  });

  it('reads today on the units clock, not the machine zone or UTC', () => {
    vi.useFakeTimers();
    // 00:30 UTC on the 28th is still 21:30 on the 27th in São Paulo.
    at('2026-11-28T00:30:00Z');
    expect(unitToday()).toBe('2026-11-27');
    expect(unitInstant()).toBe('2026-11-27T21:30:00');
  });

  it('gives working days that are barbers days, never Sunday, Monday or a holiday', () => {
    vi.useFakeTimers();
    // Friday 27/11/2026 00:05 in São Paulo: 10 and 9 days ahead are both Tuesday 08/12.
    at('2026-11-27T03:05:00Z');
    expect(workingDayAhead(10)).toBe('2026-12-08');
    expect(workingDayAhead(9)).toBe('2026-12-08');
    // 31/12 23:59: the 1st is a holiday, the 2nd a Saturday.
    at('2027-01-01T02:59:00Z');
    expect(workingDayAhead(1)).toBe('2027-01-02');
    // 24/12/2027 is a Friday: Christmas (Saturday) is skipped, then Sunday and Monday.
    at('2027-12-24T12:00:00Z');
    expect(workingDayAhead(1)).toBe('2027-12-28');
    for (let day = 0; day < 14; day += 1) {
      at(`2026-11-${String(16 + day).padStart(2, '0')}T15:00:00Z`);
      const weekday = new Date(`${workingDayAhead(3)}T12:00:00Z`).getUTCDay();
      expect([2, 3, 4, 5, 6]).toContain(weekday);
    }
  });
});

// Tests read the time through clock.ts and open browsers through fixtures.ts, so that
// `./navalha test --at` places them with the services.
describe('the end-to-end tests', () => {
  // Vitest runs in web/ (npm test).
  const dir = join(process.cwd(), 'e2e');
  const files = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
  const rules: [RegExp, string][] = [
    [/Date\.now\(\)/, 'Date.now(): use now() or stamp() from clock.ts'],
    [/new Date\(\)/, 'new Date(): use unitNow() or now() from clock.ts'],
    [/browser\.newContext\(/, 'browser.newContext(): use newContext() from fixtures.ts'],
    [/import \{[^}]*\btest\b[^}]*\} from '@playwright\/test'/, "Playwright's own test: import test from fixtures.ts"],
  ];
  const allowed: Record<string, string[]> = { 'clock.ts': ['Date.now()'], 'fixtures.ts': ["Playwright's own test", 'browser.newContext()'] };

  it('finds the files', () => expect(files.length).toBeGreaterThan(20));

  for (const name of files) {
    it(`${name} reads the time only through the clock helpers`, () => {
      const text = readFileSync(join(dir, name), 'utf8');
      const broken = rules
        .filter(([pattern]) => pattern.test(text))
        .map(([, message]) => message)
        .filter((message) => !(allowed[name] ?? []).some((prefix) => message.startsWith(prefix)));
      expect(broken).toEqual([]);
    });
  }
});
