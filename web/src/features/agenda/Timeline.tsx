import type { CSSProperties } from 'react';
import { minutesNow, shortTime } from '@/lib/dates';
import { CardMenu, type CardActions } from './AppointmentCard';
import { TIMELINE_HEIGHT, layoutLanes, nowLineY, spanOfTimes, ticks } from './timeline';
import type { DayItem } from './types';

export interface TimelineColumn {
  idProfessional: number;
  name: string;
  color: string;
}

interface TimelineProps extends Omit<CardActions, 'onNotWhatsApp'> {
  items: DayItem[];
  columns: TimelineColumn[];
  date: string;
  today: string;
  /** Refreshed every minute by the page. */
  now: number;
  isPast: (item: DayItem) => boolean;
}

const TICKS = ticks();

/** A light wash of the professional's colour for their column. */
const tint = (color: string): CSSProperties =>
  color ? { background: `color-mix(in srgb, ${color} 6%, transparent)`, borderTopColor: color } : {};

/** 9:00 to 21:00 with 15-minute ticks, one coloured column per professional. */
export function Timeline({ items, columns, date, today, now, isPast, onEdit, onCancel, onConfirm }: TimelineProps) {
  const nowY = nowLineY(date, today, minutesNow(now));
  return (
    <section className="timeline" aria-label="Linha do tempo">
      <div className="timeline-head">
        <div className="timeline-gutter" />
        {columns.map((column) => (
          <div key={column.idProfessional} className="timeline-column-head" style={tint(column.color)}>
            <span className="color-dot" style={{ background: column.color || undefined }} aria-hidden="true" />
            {column.name}
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
            const own = items.filter((item) => item.IdProfessional === column.idProfessional);
            const placed = layoutLanes(own, (item) => spanOfTimes(item.StartTime, item.EndTime));
            return (
              <div
                key={column.idProfessional}
                className="timeline-column"
                style={tint(column.color)}
                role="list"
                aria-label={`Agenda de ${column.name}`}
              >
                {placed.map(({ item, lane, lanes, top, height }) => (
                  <article
                    key={item.IdScheduling}
                    role="listitem"
                    className={`timeline-event${item.Status ? '' : ' timeline-event-cancelled'}`}
                    style={{
                      top,
                      height,
                      left: `${(lane / lanes) * 100}%`,
                      width: `${100 / lanes}%`,
                      background: column.color || undefined,
                    }}
                    aria-label={`Agendamento N.º ${item.IdScheduling}: ${item.UserName}, ${shortTime(item.StartTime)} - ${shortTime(item.EndTime)}`}
                    title={`${shortTime(item.StartTime)} - ${shortTime(item.EndTime)} ${item.UserName} (${item.Services.join(', ')})`}
                  >
                    <div className="timeline-event-text">
                      <strong>
                        {shortTime(item.StartTime)} {item.UserName}
                      </strong>
                      <span>{item.Status ? item.Services.join(', ') : 'Cancelado'}</span>
                    </div>
                    {item.Status && (
                      <CardMenu item={item} past={isPast(item)} onEdit={onEdit} onCancel={onCancel} onConfirm={onConfirm} />
                    )}
                  </article>
                ))}
              </div>
            );
          })}
          {nowY !== null && <div className="now-line" style={{ top: nowY }} role="presentation" data-testid="now-line" />}
        </div>
      </div>
    </section>
  );
}
