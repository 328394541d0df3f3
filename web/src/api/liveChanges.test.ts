import { describe, expect, it } from 'vitest';
import { MODEL_TAGS, nextDelay, parseServerEvents, RECONNECT_MAX_MS, RECONNECT_MIN_MS, tagsFor } from './liveChanges';

describe('server-sent events', () => {
  it('are split at blank lines, keeping an unfinished event for the next chunk', () => {
    const { events, rest } = parseServerEvents(
      'event: ready\ndata: {}\n\n:\n\nevent: change\ndata: {"model":"agenda","position":"9.12"}\n\nevent: cha',
    );
    expect(events).toEqual([
      { event: 'ready', data: '{}' },
      { event: 'change', data: '{"model":"agenda","position":"9.12"}' },
    ]);
    expect(rest).toBe('event: cha');
    const next = parseServerEvents(`${rest}nge\r\ndata: {"model":"*"}\r\n\r\n`);
    expect(next.events).toEqual([{ event: 'change', data: '{"model":"*"}' }]);
    expect(next.rest).toBe('');
  });

  it('drop keep-alive comments and nameless blocks', () => {
    expect(parseServerEvents(':\n\ndata: orphan\n\n').events).toEqual([]);
  });
});

describe('a change', () => {
  it('of the agenda fetches the day and the free times again', () => {
    expect(tagsFor('agenda')).toEqual(['Scheduling', 'AvailableTime']);
    expect(tagsFor('day_off')).toContain('AvailableTime');
  });

  it("of a comanda fetches the comandas, the agenda (its appointment's state) and the caixa again", () => {
    expect(tagsFor('comanda')).toEqual(['Comanda', 'Scheduling', 'Caixa']);
    expect(tagsFor('caixa')).toEqual(['Caixa']);
    expect(tagsFor('product')).toEqual(['Product']);
  });

  it("of a reminder fetches the agenda (the card's reminder state) and the messages again (issue 44)", () => {
    expect(tagsFor('message')).toEqual(['Scheduling', 'Message']);
  });

  it('of an unknown model, or a stream that fell behind, fetches everything again', () => {
    const every = new Set(Object.values(MODEL_TAGS).flat());
    expect(new Set(tagsFor('*'))).toEqual(every);
    expect(new Set(tagsFor('new_model'))).toEqual(every);
  });
});

describe('reconnecting', () => {
  it('waits twice as long each time, up to 30 s', () => {
    const delays = [RECONNECT_MIN_MS];
    while (delays.length < 8) delays.push(nextDelay(delays[delays.length - 1]));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(RECONNECT_MAX_MS).toBe(30000);
  });
});
