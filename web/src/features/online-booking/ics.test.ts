import { describe, expect, it } from 'vitest';
import { buildIcs, foldLine, icsLocalDateTime, icsText, icsUtc } from './ics';

const event = {
  uid: 'navalha-booking-9@navalha',
  date: '2026-11-30',
  start: '10:00',
  end: '10:45',
  summary: 'Corte, Barba - Navalha Centro',
  location: 'Rua Augusta, 100 - Consolação, São Paulo/SP',
  url: 'https://navalha.test/agendar/1/reserva/abc',
  now: new Date('2026-11-24T13:05:09.123Z'),
};

/** The content lines of a file, continuation lines unfolded. */
const unfold = (ics: string) => ics.replace(/\r\n /g, '').split('\r\n');

describe('the booking calendar file', () => {
  it('is one VEVENT at the unit wall time in America/Sao_Paulo', () => {
    const ics = buildIcs(event);
    const lines = unfold(ics);
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain('VERSION:2.0');
    expect(lines).toContain('DTSTART;TZID=America/Sao_Paulo:20261130T100000');
    expect(lines).toContain('DTEND;TZID=America/Sao_Paulo:20261130T104500');
    expect(lines).toContain('DTSTAMP:20261124T130509Z');
    expect(lines).toContain('UID:navalha-booking-9@navalha');
    expect(lines).toContain('SUMMARY:Corte\\, Barba - Navalha Centro');
    expect(lines).toContain('LOCATION:Rua Augusta\\, 100 - Consolação\\, São Paulo/SP');
    expect(lines).toContain('URL:https://navalha.test/agendar/1/reserva/abc');
    // The time zone the event names is described in the file.
    expect(lines).toContain('TZID:America/Sao_Paulo');
    expect(lines).toContain('TZOFFSETTO:-0300');
    expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    // Every line break is CRLF.
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('keeps the wall time whatever the seconds or the format of the times', () => {
    expect(icsLocalDateTime('2026-01-05', '09:30:00')).toBe('20260105T093000');
    expect(icsLocalDateTime('2026-01-05', '9:05')).toBe('20260105T090500');
    expect(icsUtc(new Date('2026-01-05T00:00:00Z'))).toBe('20260105T000000Z');
  });

  it('escapes text values', () => {
    expect(icsText('a;b,c\\d\ne')).toBe('a\\;b\\,c\\\\d\\ne');
  });

  it('folds long lines at 75 octets without splitting a character', () => {
    const long = `LOCATION:${'ã'.repeat(60)}`;
    const folded = foldLine(long);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(new TextEncoder().encode(part).length).toBeLessThanOrEqual(75);
    expect(parts.slice(1).every((part) => part.startsWith(' '))).toBe(true);
    expect(folded.replace(/\r\n /g, '')).toBe(long);
    expect(foldLine('SHORT:1')).toBe('SHORT:1');
  });
});
