// The one clock of the end-to-end tests (ADR 0021). `./navalha test --at <instant>` places
// the whole stack at another instant: the services move their clock by
// NAVALHA_CLOCK_OFFSET_SECONDS, and so do these helpers and every browser page (Playwright's
// clock). Tests read the time only through here (and fixtures.ts, which puts the browser on it);
// `e2e/clock.test.ts` keeps it so.

/** How far the stack under test is placed from the real time, in milliseconds. */
export const CLOCK_OFFSET_MS = Number(process.env.NAVALHA_CLOCK_OFFSET_SECONDS ?? '0') * 1000;

/** Now, on the clock of the stack under test (milliseconds since the epoch). */
export const now = () => Date.now() + CLOCK_OFFSET_MS;

/** The units' wall clock now (the demo units are on São Paulo time, UTC-3 since 2019), as a Date read in UTC. */
export const unitNow = () => new Date(now() - 3 * 3600_000);

/** The unit's clock now, to the second ('2026-11-27T09:30:00'): what the past view's control takes. */
export const unitInstant = () => unitNow().toISOString().slice(0, 19);

/** Today on the units' clock, 'YYYY-MM-DD'. */
export const unitToday = () => unitNow().toISOString().slice(0, 10);

/** The day `days` after `isoDate` (before it when negative), 'YYYY-MM-DD'. */
export function daysAfter(isoDate: string, days: number): string {
  const day = new Date(`${isoDate}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

/** Digits that differ between calls and runs, for unique names and e-mails (not a time). */
let stamps = 0;
export const stamp = () => `${Date.now()}${(stamps++ % 100).toString().padStart(2, '0')}`;

const iso = (d: Date) => d.toISOString().slice(0, 10);

/** The first Tuesday-to-Saturday (the barbers' days), not a demo holiday, at least `minDaysAhead` days from today. */
export function workingDayAhead(minDaysAhead: number): string {
  const day = unitNow();
  day.setUTCDate(day.getUTCDate() + minDaysAhead);
  // The demo holidays (Natal, Confraternização Universal) close every unit.
  const holiday = (d: Date) => ['12-25', '01-01'].includes(iso(d).slice(5));
  while (day.getUTCDay() === 0 || day.getUTCDay() === 1 || holiday(day)) day.setUTCDate(day.getUTCDate() + 1);
  return iso(day);
}
