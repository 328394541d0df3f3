import type { ReactNode } from 'react';
import { Icon } from '@/components/Icon';
import { formatPhone } from '@/lib/masks';
import { whatsAppLink } from '@/lib/whatsapp';
import { todayHoursLabel, weekHours } from './booking';
import type { OnlineUnit } from './types';
import './online-booking.css';

/** The public booking pages' frame: a slim brand bar and one centred column. */
export function BookingFrame({ children }: { children: ReactNode }) {
  return (
    <div className="ob-page">
      <header className="ob-bar">
        <Icon name="scissors" size={20} />
        <span>Navalha</span>
      </header>
      <main className="ob-main">{children}</main>
    </div>
  );
}

/** A message the page must not miss (a refusal, a failure); nothing when there is none. */
export function Alert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="ob-alert" role="alert">
      {message}
    </p>
  );
}

/** The whole page while its first answer is on the way, or when it failed (`problem`). */
export function PendingPage({ problem }: { problem?: string | null }) {
  return (
    <BookingFrame>
      {problem ? (
        <Alert message={problem} />
      ) : (
        <p className="page-loading" role="status">
          Carregando…
        </p>
      )}
    </BookingFrame>
  );
}

/** How to reach the unit: WhatsApp when the number is on it, a call otherwise. */
export function ContactLink({ unit }: { unit: Pick<OnlineUnit, 'Phone' | 'WhatsApp'> }) {
  if (!unit.Phone) return null;
  return unit.WhatsApp ? (
    <a className="button button-secondary ob-contact" href={whatsAppLink(unit.Phone)} target="_blank" rel="noopener noreferrer">
      <Icon name="whatsapp" size={18} />
      WhatsApp {formatPhone(unit.Phone)}
    </a>
  ) : (
    <a className="button button-secondary ob-contact" href={`tel:+55${unit.Phone.replace(/\D/g, '')}`}>
      Ligar {formatPhone(unit.Phone)}
    </a>
  );
}

/** The unit: name, address, photos, hours and contact. */
export function UnitHeader({ unit }: { unit: OnlineUnit }) {
  return (
    <section className="ob-unit" aria-labelledby="ob-unit-name">
      <h1 id="ob-unit-name" className="ob-unit-name">
        {unit.Name}
      </h1>
      {unit.Address && <p className="ob-unit-address">{unit.Address}</p>}
      {unit.Photos.length > 0 && (
        // Scrolls sideways: focusable, so a keyboard can scroll it too.
        <div className="ob-photos" role="group" aria-label="Fotos" tabIndex={0}>
          {unit.Photos.map((src, index) => (
            <img
              key={src}
              src={src}
              alt={`Foto ${index + 1} de ${unit.Name}`}
              width={240}
              height={160}
              // The first is in view at once; the others load as they scroll in.
              loading={index === 0 ? 'eager' : 'lazy'}
              decoding="async"
            />
          ))}
        </div>
      )}
      <div className="ob-unit-row">
        <details className="ob-hours">
          <summary>{todayHoursLabel(unit.Hours, Date.now(), unit.TimeZone)}</summary>
          <table aria-label="Horário de funcionamento">
            <tbody>
              {weekHours(unit.Hours).map((day) => (
                <tr key={day.weekDay}>
                  <th scope="row">{day.name}</th>
                  <td>{day.hours ?? 'Fechado'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
        <ContactLink unit={unit} />
      </div>
    </section>
  );
}
