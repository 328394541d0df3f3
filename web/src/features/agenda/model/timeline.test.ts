import { describe, expect, it } from 'vitest';
import {
  HOUR_ROW_PX,
  PX_PER_MINUTE,
  TIMELINE_HEIGHT,
  dropStart,
  intervalAfterBlock,
  layoutLanes,
  minutesAt,
  nowLineY,
  spanOfTimes,
  ticks,
  weekOf,
  yOf,
} from './timeline';
import { weekColumns } from '../components/WeekView';

const at = (time: string) => {
  const [h, m] = time.split(':').map(Number);
  return h * 60 + m;
};
const span = (start: string, end: string) => ({ id: `${start}-${end}`, start: at(start), end: at(end) });
const lay = (items: ReturnType<typeof span>[]) =>
  Object.fromEntries(layoutLanes(items, (item) => item).map((p) => [p.item.id, [p.lane, p.lanes]]));

describe('timeline grid', () => {
  it('runs 9:00 to 21:00 at 2 px per minute in 122 px hour rows', () => {
    expect(PX_PER_MINUTE).toBe(2);
    expect(HOUR_ROW_PX).toBe(122);
    expect(yOf(at('09:00'))).toBe(0);
    expect(yOf(at('09:15'))).toBe(30);
    expect(yOf(at('09:59'))).toBe(118);
    expect(yOf(at('10:00'))).toBe(122);
    expect(yOf(at('13:30'))).toBe(4 * 122 + 60);
    expect(TIMELINE_HEIGHT).toBe(12 * 122);
  });

  it('clamps times outside the grid to its edges', () => {
    expect(yOf(at('08:00'))).toBe(0);
    expect(yOf(at('22:30'))).toBe(TIMELINE_HEIGHT);
  });

  it('ticks every 15 minutes, labelling whole hours', () => {
    const all = ticks();
    expect(all).toHaveLength(12 * 4 + 1);
    expect(all.slice(0, 5).map((t) => t.label)).toEqual(['9:00', null, null, null, '10:00']);
    expect(all.at(-1)).toEqual({ minutes: at('21:00'), y: TIMELINE_HEIGHT, label: '21:00' });
  });

  it('reads appointment times of the day list', () => {
    expect(spanOfTimes('09:45:00', '10:30:00')).toEqual({ start: 585, end: 630 });
  });
});

describe('lanes', () => {
  it('keeps apart appointments that do not overlap, touching ones included', () => {
    expect(lay([span('09:00', '09:30'), span('09:30', '10:00'), span('11:00', '12:00')])).toEqual({
      '09:00-09:30': [0, 1],
      '09:30-10:00': [0, 1],
      '11:00-12:00': [0, 1],
    });
  });

  it('puts overlapping appointments side by side', () => {
    expect(lay([span('09:00', '10:00'), span('09:30', '10:30')])).toEqual({
      '09:00-10:00': [0, 2],
      '09:30-10:30': [1, 2],
    });
  });

  it('reuses a lane freed inside a chain and shares the chain’s lane count', () => {
    // A overlaps B, B overlaps C, C starts when A ends: C takes A's lane; all share 2 lanes.
    expect(lay([span('09:00', '10:00'), span('09:30', '11:00'), span('10:00', '10:30'), span('12:00', '12:30')])).toEqual({
      '09:00-10:00': [0, 2],
      '09:30-11:00': [1, 2],
      '10:00-10:30': [0, 2],
      '12:00-12:30': [0, 1],
    });
  });

  it('opens as many lanes as appointments at once', () => {
    const placed = lay([span('14:00', '15:00'), span('14:00', '14:30'), span('14:15', '14:45')]);
    expect(Object.values(placed).map(([, lanes]) => lanes)).toEqual([3, 3, 3]);
    expect(Object.values(placed).map(([lane]) => lane).sort()).toEqual([0, 1, 2]);
  });

  it('gives each appointment its top and height on the grid', () => {
    const [placed] = layoutLanes([span('10:00', '10:45')], (item) => item);
    expect(placed.top).toBe(122);
    expect(placed.height).toBe(90);
  });
});

describe("an appointment's 'Intervalo após'", () => {
  const item = (EndTime: string, IntervalAfter: number, Status = true) => ({ EndTime, IntervalAfter, Status });

  it('runs from the end to the end plus the interval, right below the card', () => {
    // 10:30 is one hour row (122 px) and 30 minutes (60 px) down; 15 minutes are 30 px.
    expect(intervalAfterBlock(item('10:30:00', 15))).toEqual({ start: at('10:30'), end: at('10:45'), top: 182, height: 30 });
    // Across an hour: the 2 px hour rule is inside it.
    expect(intervalAfterBlock(item('10:50:00', 20))).toEqual({ start: at('10:50'), end: at('11:10'), top: 222, height: 42 });
  });

  it('is none for a cancelled appointment or one without an interval', () => {
    expect(intervalAfterBlock(item('10:30:00', 15, false))).toBeNull();
    expect(intervalAfterBlock(item('10:30:00', 0))).toBeNull();
  });

  it('is cut at the end of the grid, and none when it is wholly off it', () => {
    const top = yOf(at('20:50'));
    expect(intervalAfterBlock(item('20:50:00', 30))).toEqual({ start: at('20:50'), end: at('21:20'), top, height: TIMELINE_HEIGHT - top });
    expect(intervalAfterBlock(item('21:00:00', 15))).toBeNull();
  });
});

describe('current-time line', () => {
  it('shows only today, between 8h and 22h', () => {
    expect(nowLineY('2026-11-24', '2026-11-24', at('10:00'))).toBe(122);
    expect(nowLineY('2026-11-25', '2026-11-24', at('10:00'))).toBeNull();
    expect(nowLineY('2026-11-24', '2026-11-24', at('07:59'))).toBeNull();
    expect(nowLineY('2026-11-24', '2026-11-24', at('22:00'))).toBeNull();
  });

  it('sits on the grid edge before 9:00 and after 21:00', () => {
    expect(nowLineY('2026-11-24', '2026-11-24', at('08:30'))).toBe(0);
    expect(nowLineY('2026-11-24', '2026-11-24', at('21:30'))).toBe(TIMELINE_HEIGHT);
  });
});

describe('where a click or a drop lands', () => {
  it('is the time under the pointer, rounded down to a quarter hour', () => {
    expect(minutesAt(0)).toBe(9 * 60);
    expect(minutesAt(29)).toBe(9 * 60);
    expect(minutesAt(30)).toBe(9 * 60 + 15);
    // 10:30 is one hour row (122 px) and 30 minutes (60 px) down.
    expect(minutesAt(122 + 60)).toBe(10 * 60 + 30);
    // The 2 px hour rule belongs to the hour above.
    expect(minutesAt(121)).toBe(9 * 60 + 45);
    for (const minutes of [9 * 60, 11 * 60 + 45, 17 * 60 + 15, 20 * 60 + 45]) {
      expect(minutesAt(yOf(minutes))).toBe(minutes);
    }
  });

  it('stays inside the grid', () => {
    expect(minutesAt(-40)).toBe(9 * 60);
    expect(minutesAt(TIMELINE_HEIGHT + 500)).toBe(21 * 60 - 15);
  });

  it('keeps a dragged card where it was held, and the whole appointment inside the grid', () => {
    // Grabbed 20 px (10 min) below its top, dropped with the pointer at 14:40: starts 14:30.
    expect(dropStart(yOf(14 * 60 + 40), 20, 30)).toBe(14 * 60 + 30);
    // A pixel off either way still lands on the quarter the card's top is nearest to.
    expect(dropStart(yOf(17 * 60 + 15) + 30, 31, 30)).toBe(17 * 60 + 15);
    expect(dropStart(yOf(17 * 60 + 15) + 30, 29, 30)).toBe(17 * 60 + 15);
    expect(dropStart(yOf(9 * 60) - 50, 0, 30)).toBe(9 * 60);
    // A 45-minute appointment dropped at 20:45 would end after 21:00: it starts at 20:15.
    expect(dropStart(yOf(20 * 60 + 45), 0, 45)).toBe(20 * 60 + 15);
  });
});

describe('the week', () => {
  it('has a column a day, Monday first, headed by weekday and date, in the professional colour', () => {
    const columns = weekColumns({ IdProfessional: 4, Color: '#FF9800' }, weekOf('2026-11-26'));
    expect(columns.map((c) => c.name)).toEqual(['Seg 23/11', 'Ter 24/11', 'Qua 25/11', 'Qui 26/11', 'Sex 27/11', 'Sab 28/11', 'Dom 29/11']);
    expect(new Set(columns.map((c) => `${c.idProfessional} ${c.color}`))).toEqual(new Set(['4 #FF9800']));
    expect(columns[3].date).toBe('2026-11-26');
  });

  it('runs Monday to Sunday around the day shown', () => {
    const week = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'];
    expect(weekOf('2026-11-24')).toEqual(week);
    expect(weekOf('2026-11-23')).toEqual(week);
    expect(weekOf('2026-11-29')).toEqual(week);
    // Across a month and a year.
    expect(weekOf('2027-01-01')).toEqual(['2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02', '2027-01-03']);
  });
});
