import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { shortTime } from '@/lib/dates';
import { CUTOFF_MESSAGE, dayLongLabel, professionalsFor, wallClockLabel } from './booking';
import { BookingSummary, CalendarButton, manageUrl } from './BookingSummary';
import {
  problemOf,
  statusOf,
  useCancelOnlineBookingMutation,
  useGetOnlineBookingQuery,
  useGetOnlineUnitQuery,
  useRescheduleOnlineBookingMutation,
} from './onlineBookingApi';
import { DayTimePicker, ProfessionalCards, isCurrentSlot, type CurrentSlot } from './SlotPicker';
import type { OnlineBooking, OnlineUnit } from './types';
import { Alert, BookingFrame, ContactLink, PendingPage } from './UnitHeader';
import { useSlots } from './useSlots';

export const BOOKING_NOT_FOUND = 'Agendamento não encontrado.';
export const CANCELLED_MESSAGE = 'Agendamento cancelado.';
export const RESCHEDULED_MESSAGE = 'Agendamento remarcado.';
export const SAME_TIME_MESSAGE = 'Este já é o horário do seu agendamento. Escolha outro horário.';

const STATUS_LABEL: Record<OnlineBooking['Status'], string> = { BOOKED: 'Confirmado', CANCELLED: 'Cancelado' };

/** /agendar/{idCompany}/reserva/{token}: one booking, from the confirmation's link. */
export default function ManageBookingPage() {
  const { token = '' } = useParams();
  const booking = useGetOnlineBookingQuery(token, { skip: !token });

  if (!token || booking.isError) {
    return <PendingPage problem={!token || statusOf(booking.error) === 404 ? BOOKING_NOT_FOUND : problemOf(booking.error)} />;
  }
  if (!booking.data) return <PendingPage />;
  return <ManageBooking token={token} booking={booking.data} reload={() => void booking.refetch()} />;
}

function ManageBooking({ token, booking, reload }: { token: string; booking: OnlineBooking; reload: () => void }) {
  // The unit's professionals (to reschedule) and contact; the booking's own unit.
  const unit = useGetOnlineUnitQuery(booking.IdCompany);
  const [cancel, cancelCall] = useCancelOnlineBookingMutation();
  const [confirming, setConfirming] = useState(false);
  const [rescheduling, setRescheduling] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const booked = booking.Status === 'BOOKED';
  const url = manageUrl(booking.IdCompany, token);

  const cancelBooking = async () => {
    setConfirming(false);
    setProblem(null);
    setDone(null);
    try {
      await cancel(token).unwrap();
      setRescheduling(false);
      setDone(CANCELLED_MESSAGE);
    } catch (failure) {
      setProblem(problemOf(failure));
      // Past the cut-off meanwhile: the page shows the booking as it is now.
      if (statusOf(failure) === 409) reload();
    }
  };

  return (
    <BookingFrame>
      <section className="ob-done" aria-labelledby="ob-manage-title">
        <div className="ob-title-row">
          <h1 id="ob-manage-title" className="ob-unit-name">
            Seu agendamento
          </h1>
          <span className={`badge ${booked ? 'badge-success' : 'badge-danger'}`}>{STATUS_LABEL[booking.Status]}</span>
        </div>
        {done && (
          <p className="ob-info" role="status">
            {done}
          </p>
        )}
        <BookingSummary booking={booking} />

        {booked && booking.Changeable && (
          <p className="muted ob-small">Você pode cancelar ou remarcar até {wallClockLabel(booking.ChangeableUntil)}.</p>
        )}
        {booked && !booking.Changeable && (
          <div className="ob-note">
            <p>{CUTOFF_MESSAGE}</p>
            {unit.data && <ContactLink unit={unit.data} />}
          </div>
        )}

        <div className="ob-actions">
          {booked && <CalendarButton booking={booking} url={url} />}
          {booked && booking.Changeable && !rescheduling && (
            <button type="button" className="button button-primary" onClick={() => setRescheduling(true)}>
              Remarcar
            </button>
          )}
          {booked && booking.Changeable && (
            <button
              type="button"
              className="button button-danger"
              disabled={cancelCall.isLoading}
              aria-busy={cancelCall.isLoading || undefined}
              onClick={() => setConfirming(true)}
            >
              {cancelCall.isLoading ? 'Cancelando…' : 'Cancelar agendamento'}
            </button>
          )}
          {!booked && (
            <Link className="button button-primary" to={`/agendar/${booking.IdCompany}`}>
              Fazer novo agendamento
            </Link>
          )}
        </div>
        <Alert message={problem} />
      </section>

      {booked && booking.Changeable && rescheduling && (
        <Reschedule
          token={token}
          booking={booking}
          unit={unit.data}
          onClose={() => setRescheduling(false)}
          reload={reload}
          onDone={() => {
            setRescheduling(false);
            setProblem(null);
            setDone(RESCHEDULED_MESSAGE);
          }}
        />
      )}

      <ConfirmDialog
        open={confirming}
        title="Cancelar agendamento?"
        confirmLabel="Cancelar agendamento"
        cancelLabel="Voltar"
        onConfirm={() => void cancelBooking()}
        onCancel={() => setConfirming(false)}
      >
        <p>
          O horário de {dayLongLabel(booking.Date)} às {shortTime(booking.StartTime)} ficará livre para outros clientes.
        </p>
      </ConfirmDialog>
    </BookingFrame>
  );
}

/** Whether the booked professional is still among those who do the booking's services. */
export const bookedStillOffered = (professionals: { IdProfessional: number }[], idProfessional: number) =>
  professionals.some((professional) => professional.IdProfessional === idProfessional);

/** Another day and time for the same services, with the same or another professional. */
function Reschedule({
  token,
  booking,
  unit,
  onClose,
  onDone,
  reload,
}: {
  token: string;
  booking: OnlineBooking;
  unit: OnlineUnit | undefined;
  onClose: () => void;
  onDone: () => void;
  reload: () => void;
}) {
  const idServices = useMemo(() => booking.Services.map((service) => service.IdService), [booking.Services]);
  const professionals = useMemo(() => professionalsFor(unit?.Professionals ?? [], idServices), [unit, idServices]);
  // With the link's token the booking's own time counts as free: it is offered (marked
  // 'Horário atual'), and so are times that overlap it. The picker opens on its day, with
  // the booked professional (issue 45): the client chose them, 'Sem preferência' is a choice.
  const slots = useSlots(booking.IdCompany, idServices, booking.IdProfessional, {
    bookingToken: token,
    initialDate: booking.Date,
  });
  // One who no longer does these services here is not offered: then anyone.
  const { idProfessional, chooseProfessional } = slots;
  useEffect(() => {
    if (unit && idProfessional === booking.IdProfessional && !bookedStillOffered(professionals, booking.IdProfessional)) {
      chooseProfessional(null);
    }
  }, [unit, professionals, idProfessional, booking.IdProfessional, chooseProfessional]);
  const current: CurrentSlot = useMemo(
    () => ({ date: booking.Date, start: shortTime(booking.StartTime), idProfessional: booking.IdProfessional }),
    [booking.Date, booking.StartTime, booking.IdProfessional],
  );
  const [reschedule, call] = useRescheduleOnlineBookingMutation();
  const [lostNotice, setLostNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async () => {
    const slot = slots.slot;
    if (!slot) {
      setProblem('Escolha um novo horário.');
      return;
    }
    if (isCurrentSlot(current, slot.date, slot.startTime, slot.idProfessional)) {
      setProblem(SAME_TIME_MESSAGE);
      return;
    }
    setProblem(null);
    setLostNotice(null);
    try {
      await reschedule({ token, slot }).unwrap();
      onDone();
    } catch (failure) {
      if (statusOf(failure) === 409) {
        // The time was taken meanwhile, or the cut-off passed: then the page, read again,
        // closes this panel and says so.
        setLostNotice(problemOf(failure));
        slots.refused(slot);
        reload();
      } else setProblem(problemOf(failure));
    }
  };

  return (
    <section className="ob-step" aria-labelledby="ob-reschedule-title">
      <h2 id="ob-reschedule-title" className="ob-step-title">
        Remarcar
      </h2>
      <h3 className="ob-subtitle">Profissional</h3>
      <ProfessionalCards
        professionals={professionals}
        value={slots.idProfessional}
        onChange={(id) => {
          slots.chooseProfessional(id);
          setLostNotice(null);
        }}
      />
      <h3 className="ob-subtitle">Dia e horário</h3>
      <DayTimePicker slots={slots} notice={lostNotice} current={current} />
      <div className="ob-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={call.isLoading}
          aria-busy={call.isLoading || undefined}
          onClick={() => void submit()}
        >
          {call.isLoading ? 'Remarcando…' : 'Confirmar remarcação'}
        </button>
        <button type="button" className="button button-secondary" onClick={onClose} disabled={call.isLoading}>
          Voltar
        </button>
      </div>
      <Alert message={problem} />
    </section>
  );
}
