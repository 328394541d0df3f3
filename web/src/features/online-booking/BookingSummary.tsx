import type { ReactNode } from 'react';
import { Icon } from '@/components/Icon';
import { brlOfCents, dayLongLabel, timeRangeLabel } from './booking';
import { buildIcs, downloadIcs } from './ics';
import type { OnlineBooking } from './types';

/** The address of a booking's manage page, absolute (for the calendar file and the e-mail). */
export const managePath = (idCompany: number, token: string) => `/agendar/${idCompany}/reserva/${encodeURIComponent(token)}`;
export const manageUrl = (idCompany: number, token: string) => `${window.location.origin}${managePath(idCompany, token)}`;

/** Unit, professional, day, time, services and total of a booking. */
export function BookingSummary({ booking }: { booking: OnlineBooking }) {
  return (
    <dl className="ob-summary">
      <div>
        <dt>Barbearia</dt>
        <dd>
          {booking.CompanyName}
          {booking.Address && <span className="ob-summary-sub">{booking.Address}</span>}
        </dd>
      </div>
      <div>
        <dt>Profissional</dt>
        <dd>{booking.ProfessionalName}</dd>
      </div>
      <div>
        <dt>Dia</dt>
        <dd>{dayLongLabel(booking.Date)}</dd>
      </div>
      <div>
        <dt>Horário</dt>
        <dd>{timeRangeLabel(booking)}</dd>
      </div>
      <div>
        <dt>Serviços</dt>
        <dd>{booking.Services.map((service) => service.Name).join(', ')}</dd>
      </div>
      <div>
        <dt>Total</dt>
        <dd>{brlOfCents(booking.TotalCents)}</dd>
      </div>
    </dl>
  );
}

/** The booking as a calendar file, at the unit's wall time. */
export function bookingIcs(booking: OnlineBooking, url: string): string {
  const services = booking.Services.map((service) => service.Name).join(', ');
  return buildIcs({
    uid: `navalha-agendamento-${booking.IdScheduling}@${window.location.hostname || 'navalha'}`,
    date: booking.Date.slice(0, 10),
    start: booking.StartTime,
    end: booking.EndTime,
    summary: `${services} - ${booking.CompanyName}`,
    location: booking.Address || booking.CompanyName,
    description: `Profissional: ${booking.ProfessionalName}\nPara cancelar ou remarcar: ${url}`,
    url,
  });
}

/** 'Adicionar ao calendário': downloads the booking's .ics. */
export function CalendarButton({ booking, url, children }: { booking: OnlineBooking; url: string; children?: ReactNode }) {
  return (
    <button
      type="button"
      className="button button-secondary"
      onClick={() => downloadIcs(`agendamento-${booking.Date.slice(0, 10)}.ics`, bookingIcs(booking, url))}
    >
      <Icon name="event" size={18} />
      {children ?? 'Adicionar ao calendário'}
    </button>
  );
}
