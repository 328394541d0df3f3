import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Icon } from '@/components/Icon';
import { usePopoverPlacement } from '@/components/usePopoverPlacement';
import { Tooltip } from '@/components/Tooltip';
import { shortTime } from '@/lib/dates';
import { formatPhone } from '@/lib/masks';
import {
  ATTENDANCE_ACTION_LABELS,
  ATTENDANCE_BADGES,
  ATTENDANCE_LABELS,
  attendanceActions,
  attendanceOf,
  type AttendanceAction,
} from '../model/attendance';
import { REMINDER_LABELS, reminderHint, reminderOf, type Reminder } from '../model/reminder';
import { seriesBadgeText, seriesRepeatText } from '../model/series';
import type { Attendance, DayItem, SeriesAnswer } from '../model/types';
import { confirmationMessage, whatsAppLink } from '../model/whatsapp';
import './Reminder.css';
import './Series.css';

export const PAST_EDIT_TOOLTIP = 'Não é possível editar um agendamento passado';

export interface CardActions {
  onEdit: (item: DayItem) => void;
  onCancel: (item: DayItem) => void;
  onConfirm: (item: DayItem) => void;
  /** The phone is not on WhatsApp: ask before opening the link. */
  onNotWhatsApp: (link: string) => void;
  /** 'Histórico': the appointment's audit; only given to ADMIN. */
  onHistory?: (item: DayItem) => void;
  /** 'Cancelar online desta origem' on an online booking (issue 39); ADMIN and ATTENDANT. */
  onCancelOrigin?: (item: DayItem) => void;
  /**
   * 'Cliente chegou', 'Não compareceu', its undo, 'Abrir comanda' and 'Ver comanda' (issue 41);
   * ADMIN and ATTENDANT. The card offers those the appointment allows (`attendanceActions`).
   */
  onAttendance?: (item: DayItem, action: AttendanceAction) => void;
}

interface AppointmentCardProps extends CardActions {
  item: DayItem;
  companyName: string;
  /** Whether the appointment has started already (it can no longer be edited nor confirmed). */
  past: boolean;
  /** The unit's day, 'YYYY-MM-DD': arrival and the undo of a no-show are for the appointment's day. */
  today: string;
  /** The past view: no options and no WhatsApp link ('Histórico' stays for ADMIN). */
  readOnly?: boolean;
}

/** One appointment of the list view. */
export function AppointmentCard({
  item,
  companyName,
  past,
  today,
  onEdit,
  onCancel,
  onConfirm,
  onNotWhatsApp,
  onHistory,
  onCancelOrigin,
  onAttendance,
  readOnly = false,
}: AppointmentCardProps) {
  const link = whatsAppLink(item.UserPhone, confirmationMessage(item.UserName, companyName, item.Date, item.StartTime));
  const subscription = item.SubscriptionUser?.[0];
  const attendance = item.Status ? attendanceOf(item) : null;
  // About a booked appointment only: a cancelled one needs no call.
  const reminder = item.Status ? reminderOf(item) : null;
  return (
    <article
      className={`appointment-card${item.Status ? '' : ' appointment-cancelled'}`}
      style={{ borderLeftColor: item.ProfessionalColor || undefined }}
      aria-label={`Agendamento N.º ${item.IdScheduling}: ${item.UserName}, ${shortTime(item.StartTime)}`}
    >
      <header className="appointment-card-header">
        <span className="appointment-time">
          {shortTime(item.StartTime)} - {shortTime(item.EndTime)}
        </span>
        {item.Status && !readOnly ? (
          <CardMenu
            item={item}
            past={past}
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
      </header>
      {(!item.Status || item.Confirmation || item.Online || attendance || item.Series) && (
        <div className="appointment-badges">
          {!item.Status && <span className="badge badge-danger">Cancelado</span>}
          {item.Status && item.Confirmation && <span className="badge badge-success">Confirmado pelo cliente</span>}
          {attendance && <AttendanceBadge attendance={attendance} />}
          {item.Online && <OnlineBadge />}
          {item.Series && <SeriesBadge series={item.Series} />}
        </div>
      )}
      <h3 className="appointment-client">{item.UserName}</h3>
      <dl className="appointment-details">
        <div>
          <dt>Telefone</dt>
          <dd>
            {formatPhone(item.UserPhone) || '-'}
            {item.UserPhone && item.Status && !readOnly && (
              <a
                className="whatsapp-link"
                href={link}
                target="_blank"
                rel="noopener noreferrer"
                aria-label="Enviar confirmação pelo WhatsApp"
                title="Enviar confirmação pelo WhatsApp"
                onClick={(event) => {
                  if (item.UserWhatsApp) return;
                  event.preventDefault();
                  onNotWhatsApp(link);
                }}
              >
                <Icon name="whatsapp" size={18} />
              </a>
            )}
          </dd>
        </div>
        <div>
          <dt>Serviços</dt>
          <dd>{item.Services.join(', ') || '-'}</dd>
        </div>
        <div>
          <dt>Observações</dt>
          <dd>{item.Observation?.trim() || '-'}</dd>
        </div>
        <div>
          <dt>Profissional</dt>
          <dd>
            <span className="color-dot" style={{ background: item.ProfessionalColor || undefined }} aria-hidden="true" />
            {item.ProfessionalName}
          </dd>
        </div>
      </dl>
      {reminder && <ReminderLine reminder={reminder} />}
      {subscription && (
        <Link className="subscription-link" to={`/dashboard/subscription-user-detail-form/${subscription.IdSubscriptionUser}`}>
          Assinante do clube
        </Link>
      )}
    </article>
  );
}

/** 'Cliente chegou', 'Atendido' or 'Não compareceu' (issue 41). */
export function AttendanceBadge({ attendance }: { attendance: Attendance }) {
  return <span className={`badge ${ATTENDANCE_BADGES[attendance]}`}>{ATTENDANCE_LABELS[attendance]}</span>;
}

/**
 * The appointment's WhatsApp reminder (issue 44), a short line under the details: 'Lembrete
 * lido' and the like; 'Lembrete não entregue' in red, with what to do on hover.
 */
export function ReminderLine({ reminder }: { reminder: Reminder }) {
  return (
    <p className={`appointment-reminder${reminder === 'FAILED' ? ' appointment-reminder-failed' : ''}`} title={reminderHint(reminder)}>
      <Icon name="whatsapp" size={14} />
      {REMINDER_LABELS[reminder]}
    </p>
  );
}

/**
 * The mark of an undelivered reminder on a timeline block (issue 44), where there is room for
 * a sign only: its label for screen readers, what to do on hover.
 */
export function ReminderFailedMark() {
  return (
    <span className="badge reminder-failed-mark" role="img" aria-label={REMINDER_LABELS.FAILED} title={reminderHint('FAILED')}>
      !
    </span>
  );
}

/** 'Série 3/4' (issue 45): the appointment's place in its regulars' series, and how often it repeats. */
export function SeriesBadge({ series }: { series: SeriesAnswer }) {
  return (
    <span className="badge badge-series" title={seriesRepeatText(series.EveryWeeks)}>
      {seriesBadgeText(series)}
    </span>
  );
}

/** The card menu's item that opens the sweep of one origin's online bookings. */
export const CANCEL_ORIGIN_LABEL = 'Cancelar online desta origem';

/** What the 'Online' mark says to a screen reader and on hover. */
export const ONLINE_LABEL = 'Agendado online';

/**
 * The mark of an appointment the client booked on the unit's public page (issue 18), the same
 * on the list's cards and the timeline's and week's blocks: a globe and 'Online', or the globe
 * alone (`compact`) where a block is narrow.
 */
export function OnlineBadge({ compact = false }: { compact?: boolean }) {
  return (
    <span
      className={`badge badge-online${compact ? ' badge-online-compact' : ''}`}
      role="img"
      aria-label={ONLINE_LABEL}
      title={ONLINE_LABEL}
    >
      <svg viewBox="0 0 16 16" width="10" height="10" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.6">
        <circle cx="8" cy="8" r="6.5" />
        <ellipse cx="8" cy="8" rx="2.8" ry="6.5" />
        <path d="M1.5 8h13" />
      </svg>
      {!compact && 'Online'}
    </span>
  );
}

interface CardMenuProps extends Omit<CardActions, 'onNotWhatsApp'> {
  item: DayItem;
  past: boolean;
  today: string;
}

/**
 * 'Histórico' on its own, where a card has no options menu: a cancelled appointment (spec 01
 * §2 gives it none) and every card of the past view. Only given to ADMIN (`onHistory`).
 */
export function HistoryButton({ item, onHistory }: { item: DayItem; onHistory: (item: DayItem) => void }) {
  const label = `Histórico do agendamento N.º ${item.IdScheduling}`;
  return (
    <button type="button" className="icon-button" aria-label={label} title="Histórico" onClick={() => onHistory(item)}>
      <Icon name="history" />
    </button>
  );
}

/**
 * The options menu: Cancelar, Editar, Confirmar (not once it started), for ADMIN and ATTENDANT
 * the attendance and the comanda (issue 41), for ADMIN Histórico, and on an online booking,
 * for ADMIN and ATTENDANT, 'Cancelar online desta origem'.
 */
export function CardMenu({
  item,
  past,
  today,
  onEdit,
  onCancel,
  onConfirm,
  onHistory,
  onCancelOrigin,
  onAttendance,
}: CardMenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const ref = useRef<HTMLDivElement>(null);
  // Opens upward or rightward when it would leave the screen (or the timeline's scroll box).
  const listRef = useRef<HTMLDivElement>(null);
  const placement = usePopoverPlacement(open, ref, listRef);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const act = (action: (item: DayItem) => void) => () => {
    setOpen(false);
    action(item);
  };
  const attendance = onAttendance ? attendanceActions(item, past, today) : [];

  return (
    <div className="card-menu" ref={ref}>
      <button
        type="button"
        className="icon-button"
        aria-label={`Opções do agendamento N.º ${item.IdScheduling}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
      >
        <Icon name="moreVert" />
      </button>
      {open && (
        <div
          id={menuId}
          ref={listRef}
          role="menu"
          className={`card-menu-list${placement.up ? ' card-menu-list-up' : ''}${placement.start ? ' card-menu-list-start' : ''}`}
        >
          <button type="button" role="menuitem" onClick={act(onCancel)}>
            Cancelar
          </button>
          <Tooltip text={past ? PAST_EDIT_TOOLTIP : null}>
            <button type="button" role="menuitem" disabled={past} onClick={act(onEdit)}>
              Editar
            </button>
          </Tooltip>
          {/* The server refuses to confirm an appointment that started (issue 41). */}
          {!past && (
            <button type="button" role="menuitem" disabled={item.Confirmation} onClick={act(onConfirm)}>
              Confirmar
            </button>
          )}
          {onAttendance &&
            attendance.map((action) => (
              <button key={action} type="button" role="menuitem" onClick={act((chosen) => onAttendance(chosen, action))}>
                {ATTENDANCE_ACTION_LABELS[action]}
              </button>
            ))}
          {onHistory && (
            <button type="button" role="menuitem" onClick={act(onHistory)}>
              Histórico
            </button>
          )}
          {item.Online && onCancelOrigin && (
            <button type="button" role="menuitem" onClick={act(onCancelOrigin)}>
              {CANCEL_ORIGIN_LABEL}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
