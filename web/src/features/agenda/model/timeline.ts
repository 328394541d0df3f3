// Timeline arithmetic (spec 01 §2 'Timeline view', §9 'Agenda timeline'): pure functions,
// so the layout is tested without a browser.

import { addDays, minutesOf, weekdayOf } from '@/lib/dates';
import type { DayItem } from './types';

/** The grid runs from 9:00 to 21:00. */
export const TIMELINE_START = 9 * 60;
export const TIMELINE_END = 21 * 60;
/** A tick every 15 minutes. */
export const TICK_MINUTES = 15;
/** 2 px per minute... */
export const PX_PER_MINUTE = 2;
/** ...in hour rows of 122 px: 120 px of minutes plus a 2 px hour rule. */
export const HOUR_ROW_PX = 122;
/** The current-time line shows between 8h and 22h, on today only. */
export const NOW_LINE_FROM = 8 * 60;
export const NOW_LINE_UNTIL = 22 * 60;
/** How often the current-time line moves. */
export const NOW_LINE_REFRESH_MS = 60_000;

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** Vertical position of a time of day (minutes since midnight), clamped to the grid. */
export function yOf(minutes: number): number {
  const offset = clamp(minutes, TIMELINE_START, TIMELINE_END) - TIMELINE_START;
  return Math.floor(offset / 60) * HOUR_ROW_PX + (offset % 60) * PX_PER_MINUTE;
}

/** Height of the whole grid. */
export const TIMELINE_HEIGHT = yOf(TIMELINE_END);

export interface Tick {
  minutes: number;
  y: number;
  /** Whole hours are labelled ('9:00'), the quarters are not. */
  label: string | null;
}

export function ticks(): Tick[] {
  const out: Tick[] = [];
  for (let minutes = TIMELINE_START; minutes <= TIMELINE_END; minutes += TICK_MINUTES) {
    out.push({
      minutes,
      y: yOf(minutes),
      label: minutes % 60 === 0 ? `${minutes / 60}:00` : null,
    });
  }
  return out;
}

export interface Span {
  start: number;
  end: number;
}

export interface Placed<T> {
  item: T;
  /** 0-based lane inside its group of overlapping items. */
  lane: number;
  /** Lanes of that group: each item gets 1/lanes of the column's width. */
  lanes: number;
  top: number;
  height: number;
}

/**
 * Places appointments of one column: items that overlap (directly or through a chain)
 * form a group; each goes in the first lane free at its start, and every item of the group
 * shares the group's lane count. Touching items (one ends as the next starts) do not overlap.
 */
export function layoutLanes<T>(items: T[], spanOf: (item: T) => Span): Placed<T>[] {
  const sorted = items
    .map((item) => ({ item, span: spanOf(item) }))
    .sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end);
  const placed: Placed<T>[] = [];
  let group: Placed<T>[] = [];
  let laneEnds: number[] = [];
  let groupEnd = -Infinity;

  const closeGroup = () => {
    for (const entry of group) entry.lanes = laneEnds.length;
    group = [];
    laneEnds = [];
  };

  for (const { item, span } of sorted) {
    if (span.start >= groupEnd) closeGroup();
    let lane = laneEnds.findIndex((end) => end <= span.start);
    if (lane < 0) {
      lane = laneEnds.length;
      laneEnds.push(span.end);
    } else {
      laneEnds[lane] = span.end;
    }
    groupEnd = group.length ? Math.max(groupEnd, span.end) : span.end;
    const top = yOf(span.start);
    const entry: Placed<T> = { item, lane, lanes: 1, top, height: Math.max(yOf(span.end) - top, 0) };
    group.push(entry);
    placed.push(entry);
  }
  closeGroup();
  return placed;
}

/** The span of an appointment with 'HH:MM:SS' times. */
export const spanOfTimes = (start: string, end: string): Span => ({ start: minutesOf(start), end: minutesOf(end) });

/** The 'Intervalo após' an appointment keeps its professional busy for, as the grid draws it. */
export interface IntervalAfterBlock extends Span {
  top: number;
  height: number;
}

/**
 * The minutes after an active appointment's end that its services' 'Intervalo após' keeps the
 * professional busy (issue 45): from `EndTime` to `EndTime + IntervalAfter`, with its place on
 * the grid. None for a cancelled appointment, no interval, or an interval wholly off the grid.
 */
export function intervalAfterBlock(item: Pick<DayItem, 'EndTime' | 'IntervalAfter' | 'Status'>): IntervalAfterBlock | null {
  if (!item.Status || !(item.IntervalAfter > 0)) return null;
  const start = minutesOf(item.EndTime);
  const end = start + item.IntervalAfter;
  const top = yOf(start);
  const height = yOf(end) - top;
  return height > 0 ? { start, end, top, height } : null;
}

/**
 * Where the red current-time line goes, or null when it does not show: only when the day
 * shown is today and the time is between 8h and 22h (clamped to the grid's edges).
 */
export function nowLineY(dayShown: string, today: string, minutesNow: number): number | null {
  if (dayShown !== today) return null;
  if (minutesNow < NOW_LINE_FROM || minutesNow >= NOW_LINE_UNTIL) return null;
  return yOf(minutesNow);
}

/** Clicks and drops land on quarter hours, like the grid's ticks. */
export const SNAP_MINUTES = TICK_MINUTES;

/** The time of day, in fractional minutes, at a vertical position of the grid (`yOf`'s inverse). */
function minutesAtExact(y: number): number {
  const hours = Math.floor(Math.max(y, 0) / HOUR_ROW_PX);
  // The 2 px hour rule belongs to the hour above.
  const within = Math.min(Math.max(y, 0) - hours * HOUR_ROW_PX, 60 * PX_PER_MINUTE - 1) / PX_PER_MINUTE;
  return TIMELINE_START + hours * 60 + within;
}

/**
 * Where a click lands: the quarter hour under the pointer (rounded down), inside the grid.
 */
export function minutesAt(y: number): number {
  const minutes = Math.floor(minutesAtExact(y) / SNAP_MINUTES) * SNAP_MINUTES;
  return clamp(minutes, TIMELINE_START, TIMELINE_END - SNAP_MINUTES);
}

/**
 * Where a dragged appointment starts: its top follows the pointer as the card was held
 * (the pointer's position less where it was grabbed), to the nearest quarter hour, and the
 * whole appointment stays inside the grid.
 */
export function dropStart(pointerY: number, grabOffsetY: number, durationMinutes: number): number {
  const start = Math.round(minutesAtExact(pointerY - grabOffsetY) / SNAP_MINUTES) * SNAP_MINUTES;
  return clamp(start, TIMELINE_START, TIMELINE_END - durationMinutes);
}

/** The seven days, Monday to Sunday, of the week of a day ('YYYY-MM-DD'). */
export function weekOf(iso: string): string[] {
  const monday = addDays(iso, -((weekdayOf(iso) + 6) % 7));
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}
