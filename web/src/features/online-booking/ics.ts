// A calendar file (RFC 5545) for one booking, built in the browser.

/** The units' time zone: the event keeps the unit's wall time wherever the client is. */
export const ICS_TIME_ZONE = 'America/Sao_Paulo';

export interface IcsEvent {
  /** Stable per booking, so importing twice updates instead of duplicating. */
  uid: string;
  /** 'YYYY-MM-DD'. */
  date: string;
  /** 'HH:MM' or 'HH:MM:SS', the unit's wall clock. */
  start: string;
  end: string;
  summary: string;
  location: string;
  description?: string;
  url: string;
  /** When the file is made (DTSTAMP). */
  now?: Date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** '20261130T100000' of a day and a wall time. */
export function icsLocalDateTime(date: string, time: string): string {
  const [h = '00', m = '00', s = '00'] = time.split(':');
  return `${date.replaceAll('-', '')}T${pad(Number(h))}${pad(Number(m))}${pad(Number(s))}`;
}

/** '20261124T130000Z'. */
export function icsUtc(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** TEXT value escaping: backslash, semicolon, comma and line breaks. */
export function icsText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Folds a content line at 75 octets (UTF-8), continuation lines starting with a space. */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // The first line holds 75 octets; the others 74 after their leading space.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/**
 * The VCALENDAR of one event. The time zone is described inline (no daylight time in
 * Brazil since 2019), so calendars without the IANA database read it right too.
 */
export function buildIcs(event: IcsEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Navalha//Agendamento online//PT-BR',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VTIMEZONE',
    `TZID:${ICS_TIME_ZONE}`,
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    'TZOFFSETFROM:-0300',
    'TZOFFSETTO:-0300',
    'TZNAME:-03',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${icsUtc(event.now ?? new Date())}`,
    `DTSTART;TZID=${ICS_TIME_ZONE}:${icsLocalDateTime(event.date, event.start)}`,
    `DTEND;TZID=${ICS_TIME_ZONE}:${icsLocalDateTime(event.date, event.end)}`,
    `SUMMARY:${icsText(event.summary)}`,
    `LOCATION:${icsText(event.location)}`,
    ...(event.description ? [`DESCRIPTION:${icsText(event.description)}`] : []),
    `URL:${event.url}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

/** Offers the file for download (a blob: nothing leaves the browser). */
export function downloadIcs(fileName: string, content: string) {
  const url = URL.createObjectURL(new Blob([content], { type: 'text/calendar;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers read the blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
