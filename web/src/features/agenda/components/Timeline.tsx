import { Fragment, useRef, type CSSProperties, type DragEvent, type MouseEvent } from 'react';
import { darkenToContrast, isHexColor, readableTextColor } from '@/lib/contrast';
import { Icon } from '@/components/Icon';
import { useAppSelector } from '@/state/hooks';
import { selectUnitTimeZone } from '@/state/sessionSlice';
import { formatDateBR, hhmm, minutesNow, shortTime } from '@/lib/dates';
import { CardMenu, HistoryButton, OnlineBadge, ReminderFailedMark, type CardActions } from './AppointmentCard';
import { ATTENDANCE_LABELS, attendanceOf } from '../model/attendance';
import { reminderOf } from '../model/reminder';
import { TIMELINE_END, TIMELINE_HEIGHT, dropStart, intervalAfterBlock, layoutLanes, minutesAt, nowLineY, spanOfTimes, ticks, yOf } from '../model/timeline';
import type { BlockedTime, DayItem } from '../model/types';
import { SHADE_MESSAGES, blockedSpanOn, type Shade } from '../model/workingTimes';

export interface TimelineColumn {
  idProfessional: number;
  name: string;
  color: string;
  /** The column's own day (the week view); without it, the timeline's `date`. */
  date?: string;
}

/** What the pointer can do on the grid (issue 14); each is optional. */
export interface GridActions {
  /** A click on an empty slot: that column's professional and day, the time under the pointer. */
  onSlot?: (column: TimelineColumn, date: string, start: string) => void;
  /** An appointment dropped in a column, starting at `start`. */
  onMove?: (item: DayItem, column: TimelineColumn, date: string, start: string) => void;
  /** 'Bloquear horário' in a column's head. */
  onBlock?: (column: TimelineColumn, date: string) => void;
  /** The days off that cover a column's day. */
  blockedOf?: (column: TimelineColumn, date: string) => BlockedTime[];
  /** What nobody can take in a column's day (issue 45): off hours, closed, holidays, the past. */
  shadesOf?: (column: TimelineColumn, date: string) => Shade[];
}

interface TimelineProps extends Omit<CardActions, 'onNotWhatsApp'>, GridActions {
  items: DayItem[];
  columns: TimelineColumn[];
  date: string;
  today: string;
  /** Refreshed every minute by the page. */
  now: number;
  isPast: (item: DayItem) => boolean;
  /** The accessible name of the grid. */
  label?: string;
  /** The past view: cards without options (ADMIN keeps 'Histórico'). */
  readOnly?: boolean;
}

const TICKS = ticks();

/** A light wash of the professional's colour for their column. */
const tint = (color: string): CSSProperties =>
  color ? { background: `color-mix(in srgb, ${color} 6%, transparent)`, borderTopColor: color } : {};

/**
 * An event in the professional's colour with text that reaches WCAG AA on it; a cancelled one
 * is white with a dashed border in the colour and the colour darkened to read on white.
 */
const eventColours = (color: string, active: boolean): CSSProperties => {
  if (!isHexColor(color)) return {};
  return active ? { background: color, color: readableTextColor(color) } : { borderColor: color, color: darkenToContrast(color) };
};

/** The name and hint of an appointment's 'Intervalo após' on the grid; `end` in minutes since midnight. */
export const intervalAfterLabel = (end: number) => `Intervalo após o atendimento: até ${hhmm(end % (24 * 60))}`;

/** A block's second line: 'Cancelado', or the services after the attendance ('Não compareceu · Barba'). */
export const eventDetail = (item: DayItem) => {
  if (!item.Status) return 'Cancelado';
  const attendance = attendanceOf(item);
  const services = item.Services.join(', ');
  return attendance ? `${ATTENDANCE_LABELS[attendance]} · ${services}` : services;
};

const holidayText = (shade: Shade) => (shade.label ? `Feriado: ${shade.label}` : 'Feriado');

/** The few words a shade shows: the holiday's name, or that the unit is closed; none for the rest. */
export const shadeText = (shade: Shade) =>
  shade.kind === 'holiday' ? holidayText(shade) : shade.kind === 'closed' ? 'Fechado' : null;

/** 9:00 to 21:00 with 15-minute ticks, one coloured column per professional. */
export function Timeline({
  items,
  columns,
  date,
  today,
  now,
  isPast,
  onEdit,
  onCancel,
  onConfirm,
  onHistory,
  onCancelOrigin,
  onAttendance,
  onSlot,
  onMove,
  onBlock,
  blockedOf,
  shadesOf,
  label = 'Linha do tempo',
  readOnly = false,
}: TimelineProps) {
  const perColumnDates = columns.some((column) => column.date);
  const timeZone = useAppSelector(selectUnitTimeZone);
  const nowY = perColumnDates ? null : nowLineY(date, today, minutesNow(now, timeZone));
  // Where the dragged card was grabbed, so that it lands where the pointer shows it.
  const dragged = useRef<{ item: DayItem; grabY: number } | null>(null);
  const grabbedAt = useRef(0);
  const yIn = (event: MouseEvent<HTMLElement>) => event.clientY - event.currentTarget.getBoundingClientRect().top;

  const clickSlot = (column: TimelineColumn, day: string) => (event: MouseEvent<HTMLDivElement>) => {
    // The column's own background, or what is drawn on it to say nobody can take it (a shade, a
    // blocked time: the click then says why); a card or its 'Intervalo após' takes none.
    const through = event.target === event.currentTarget || (event.target as Element).closest('[data-through]') !== null;
    if (!onSlot || !through) return;
    onSlot(column, day, hhmm(minutesAt(yIn(event))));
  };
  const drop = (column: TimelineColumn, day: string) => (event: DragEvent<HTMLDivElement>) => {
    const held = dragged.current;
    dragged.current = null;
    if (!onMove || !held) return;
    event.preventDefault();
    const { start, end } = spanOfTimes(held.item.StartTime, held.item.EndTime);
    const startAt = dropStart(yIn(event), held.grabY, end - start);
    onMove(held.item, column, day, hhmm(startAt));
  };

  return (
    // The grid scrolls in its own box (its head stays on top): focusable, so that the keyboard
    // scrolls it too, whatever it holds.
    <section className={`timeline${perColumnDates ? ' timeline-week' : ''}`} aria-label={label} tabIndex={0}>
      <div className="timeline-head">
        <div className="timeline-gutter" />
        {columns.map((column) => (
          <div key={`${column.idProfessional}-${column.date ?? date}`} className="timeline-column-head" style={tint(column.color)}>
            <span className="color-dot" style={{ background: column.color || undefined }} aria-hidden="true" />
            {column.name}
            {onBlock && (
              <button
                type="button"
                className="icon-button timeline-block-button"
                aria-label={`Bloquear horário de ${column.name}${column.date ? ` em ${formatDateBR(column.date)}` : ''}`}
                title="Bloquear horário"
                onClick={() => onBlock(column, column.date ?? date)}
              >
                <Icon name="block" size={18} />
              </button>
            )}
          </div>
        ))}
      </div>
      <div className="timeline-body" style={{ height: TIMELINE_HEIGHT }}>
        <div className="timeline-gutter" aria-hidden="true">
          {TICKS.filter((tick) => tick.label).map((tick) => (
            <span key={tick.minutes} className="timeline-hour-label" style={{ top: tick.y }}>
              {tick.label}
            </span>
          ))}
        </div>
        <div className="timeline-columns">
          {TICKS.map((tick) => (
            <div
              key={tick.minutes}
              className={`timeline-tick${tick.label ? ' timeline-tick-hour' : ''}`}
              style={{ top: tick.y }}
              aria-hidden="true"
            />
          ))}
          {columns.map((column) => {
            const day = column.date ?? date;
            const own = items.filter(
              (item) => item.IdProfessional === column.idProfessional && (!column.date || item.Date === column.date),
            );
            const placed = layoutLanes(own, (item) => spanOfTimes(item.StartTime, item.EndTime));
            const columnNowY = perColumnDates ? nowLineY(day, today, minutesNow(now, timeZone)) : null;
            return (
              <div
                key={`${column.idProfessional}-${day}`}
                className={`timeline-column${onSlot ? ' timeline-column-clickable' : ''}`}
                style={tint(column.color)}
                role="list"
                aria-label={column.date ? `${column.name}, ${formatDateBR(column.date)}` : `Agenda de ${column.name}`}
                onClick={clickSlot(column, day)}
                onDragOver={onMove ? (event) => event.preventDefault() : undefined}
                onDrop={drop(column, day)}
              >
                {(shadesOf?.(column, day) ?? [])
                  // A day off is drawn as its blocked time, below.
                  .filter((shade) => shade.kind !== 'dayOff')
                  .map((shade) => {
                    const top = yOf(shade.start);
                    const text = shadeText(shade);
                    return (
                      <div
                        key={`${shade.kind}-${shade.start}`}
                        className={`timeline-shade timeline-shade-${shade.kind}`}
                        data-shade={shade.kind}
                        data-through=""
                        style={{ top, height: Math.max(yOf(shade.end) - top, 0) }}
                        title={shade.kind === 'holiday' ? `${holidayText(shade)}. ${SHADE_MESSAGES.holiday}` : SHADE_MESSAGES[shade.kind]}
                        aria-hidden="true"
                      >
                        {text && <span>{text}</span>}
                      </div>
                    );
                  })}
                {(blockedOf?.(column, day) ?? []).map((block) => {
                  const span = blockedSpanOn(block, day) ?? { start: 0, end: TIMELINE_END };
                  const top = yOf(span.start);
                  const hours = block.AllDay ? 'Dia inteiro' : `${block.StartTime} - ${block.EndTime}`;
                  return (
                    <div
                      key={block.IdDayOff}
                      role="listitem"
                      className="timeline-blocked"
                      data-through=""
                      style={{ top, height: Math.max(yOf(span.end) - top, 0) }}
                      aria-label={`Horário bloqueado: ${block.Description}, ${hours}`}
                      title={`${block.Description} (${hours})`}
                    >
                      <span>{block.Description}</span>
                    </div>
                  );
                })}
                {placed.map(({ item, lane, lanes, top, height }) => {
                  const interval = intervalAfterBlock(item);
                  return (
                    <Fragment key={item.IdScheduling}>
                      <article
                        role="listitem"
                        className={`timeline-event${item.Status ? '' : ' timeline-event-cancelled'}`}
                        style={{
                          top,
                          height,
                          left: `${(lane / lanes) * 100}%`,
                          width: `${100 / lanes}%`,
                          ...eventColours(column.color, item.Status),
                        }}
                        draggable={Boolean(onMove) && item.Status && !isPast(item)}
                        // Where the card is held is known at the press: dragstart fires only after the
                        // pointer has already moved a few pixels.
                        onPointerDown={(event) => {
                          grabbedAt.current = yIn(event);
                        }}
                        onDragStart={(event) => {
                          dragged.current = { item, grabY: grabbedAt.current };
                          event.dataTransfer.effectAllowed = 'move';
                          event.dataTransfer.setData('text/plain', String(item.IdScheduling));
                        }}
                        onDragEnd={() => {
                          dragged.current = null;
                        }}
                        aria-label={`Agendamento N.º ${item.IdScheduling}: ${item.UserName}, ${shortTime(item.StartTime)} - ${shortTime(item.EndTime)}`}
                        title={`${shortTime(item.StartTime)} - ${shortTime(item.EndTime)} ${item.UserName} (${eventDetail(item)})`}
                      >
                        <div className="timeline-event-text">
                          <strong>
                            {/* First on the first line, so that no ellipsis hides it; the globe alone
                                where the block is narrow (the week's columns, shared lanes). Of the
                                reminder (issue 44) only a failed one, as a sign: the desk calls. */}
                            {item.Status && reminderOf(item) === 'FAILED' && <ReminderFailedMark />}
                            {item.Online && <OnlineBadge compact={perColumnDates || lanes > 1} />}
                            {shortTime(item.StartTime)} {item.UserName}
                          </strong>
                          <span>{eventDetail(item)}</span>
                        </div>
                        {item.Status && !readOnly ? (
                          <CardMenu
                            item={item}
                            past={isPast(item)}
                            today={today}
                            onEdit={onEdit}
                            onCancel={onCancel}
                            onConfirm={onConfirm}
                            onHistory={onHistory}
                            onCancelOrigin={onCancelOrigin}
                            onAttendance={onAttendance}
                          />
                        ) : (
                          onHistory && <HistoryButton item={item} onHistory={onHistory} />
                        )}
                      </article>
                      {interval && (
                        // The professional stays busy after the appointment: not an empty slot, so
                        // a click on it opens nothing (the column only takes clicks on itself).
                        <div
                          role="listitem"
                          className="timeline-interval-after"
                          style={
                            {
                              top: interval.top,
                              height: interval.height,
                              left: `${(lane / lanes) * 100}%`,
                              width: `${100 / lanes}%`,
                              ...(column.color ? { '--interval-color': column.color } : {}),
                            } as CSSProperties
                          }
                          aria-label={intervalAfterLabel(interval.end)}
                          title={intervalAfterLabel(interval.end)}
                        />
                      )}
                    </Fragment>
                  );
                })}
                {columnNowY !== null && (
                  <div className="now-line" style={{ top: columnNowY }} role="presentation" data-testid="now-line" />
                )}
              </div>
            );
          })}
          {nowY !== null && <div className="now-line" style={{ top: nowY }} role="presentation" data-testid="now-line" />}
        </div>
      </div>
    </section>
  );
}
