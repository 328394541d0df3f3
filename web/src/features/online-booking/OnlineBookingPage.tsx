import { yupResolver } from '@hookform/resolvers/yup';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { Form } from '@/components/form/Form';
import { CheckboxField, ReadOnlyField } from '@/components/form/fields';
import { fieldErrorsOf } from '@/components/form/serverErrors';
import { TextField } from '@/components/TextField';
import { useIdempotencyKey } from '@/lib/idempotency';
import { shortTime } from '@/lib/dates';
import {
  CHOOSE_TIME_MESSAGE,
  EMPTY_CLIENT_VALUES,
  EXPIRED_MESSAGE,
  WHATSAPP_CONSENT_LABEL,
  clientSchema,
  codeRequestOf,
  codeSchema,
  dayLongLabel,
  durationLabel,
  priceLabel,
  professionalsFor,
  type ClientValues,
  type CodeValues,
} from './booking';
import { BookingSummary, CalendarButton, managePath, manageUrl } from './BookingSummary';
import {
  problemOf,
  statusOf,
  useBookOnlineMutation,
  useGetOnlineUnitQuery,
  useRequestBookingCodeMutation,
  useVerifyBookingCodeMutation,
} from './onlineBookingApi';
import { DayTimePicker, ProfessionalCards } from './SlotPicker';
import type { CreatedBooking, OnlineUnit } from './types';
import { Alert, BookingFrame, ContactLink, PendingPage, UnitHeader } from './UnitHeader';
import { useSlots } from './useSlots';

export const UNIT_NOT_FOUND = 'Barbearia não encontrada.';
export const NO_SERVICES_MESSAGE = 'Esta barbearia ainda não oferece serviços para agendamento online.';

/** /agendar/{idCompany}: a unit's public booking page. */
export default function OnlineBookingPage() {
  const { idCompany = '' } = useParams();
  const id = /^\d+$/.test(idCompany) ? Number(idCompany) : null;
  const unit = useGetOnlineUnitQuery(id ?? 0, { skip: id === null });

  if (id === null || unit.isError) {
    return <PendingPage problem={id === null || statusOf(unit.error) === 404 ? UNIT_NOT_FOUND : problemOf(unit.error)} />;
  }
  if (!unit.data) return <PendingPage />;
  return <BookingFlow key={id} unit={unit.data} />;
}

/** A numbered step of the page. */
function Step({ n, title, id, children }: { n: number; title: string; id: string; children: ReactNode }) {
  return (
    <section className="ob-step" aria-labelledby={id}>
      <h2 id={id} className="ob-step-title">
        <span className="ob-step-n" aria-hidden="true">
          {n}
        </span>
        {title}
      </h2>
      {children}
    </section>
  );
}

function BookingFlow({ unit }: { unit: OnlineUnit }) {
  const idCompany = unit.IdCompany;
  const [serviceIds, setServiceIds] = useState<number[]>([]);
  const slots = useSlots(idCompany, serviceIds);
  const professionals = useMemo(() => professionalsFor(unit.Professionals, serviceIds), [unit.Professionals, serviceIds]);
  const [requestId, setRequestId] = useState<string | null>(null);
  const [codeNotice, setCodeNotice] = useState<string | null>(null);
  // The booking token lives here only: never in the session state, never stored.
  const [token, setToken] = useState<string | null>(null);
  const [verifiedName, setVerifiedName] = useState<string | null>(null);
  const [booked, setBooked] = useState<CreatedBooking | null>(null);
  // A time lost to another client (409): told above the times.
  const [lostNotice, setLostNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // One key per attempt: pressing again after a lost answer (or a 5xx) books once.
  const withKey = useIdempotencyKey();
  const timesRef = useRef<HTMLDivElement>(null);

  const [requestCode, codeCall] = useRequestBookingCodeMutation();
  const [verifyCode, verifyCall] = useVerifyBookingCodeMutation();
  const [book, bookCall] = useBookOnlineMutation();
  const working = verifyCall.isLoading || bookCall.isLoading;

  const detailsForm = useForm<ClientValues>({ resolver: yupResolver(clientSchema), defaultValues: EMPTY_CLIENT_VALUES });
  const codeForm = useForm<CodeValues>({ resolver: yupResolver(codeSchema), defaultValues: { code: '' } });

  if (booked) return <Confirmation booking={booked} unit={unit} name={verifiedName} />;

  const toggleService = (id: number) => {
    const next = serviceIds.includes(id) ? serviceIds.filter((other) => other !== id) : [...serviceIds, id];
    setServiceIds(next);
    // A professional who does not do every chosen service is let go.
    const chosen = slots.idProfessional;
    if (chosen !== null && !professionalsFor(unit.Professionals, next).some((p) => p.IdProfessional === chosen)) {
      slots.chooseProfessional(null);
    }
    setLostNotice(null);
  };

  const sendCode = async (values: ClientValues) => {
    setProblem(null);
    try {
      const answer = await requestCode({ idCompany, body: codeRequestOf(values) }).unwrap();
      setRequestId(answer.RequestId);
      setCodeNotice(answer.message);
      codeForm.reset({ code: '' });
    } catch (failure) {
      // A 422 naming fields lands on them (the Form does it); anything else is said here.
      if (fieldErrorsOf(failure)) throw failure;
      setProblem(problemOf(failure));
    }
  };

  const resendCode = async (values: ClientValues) => {
    try {
      await sendCode(values);
    } catch (failure) {
      setProblem(problemOf(failure));
    }
  };

  const changeDetails = () => {
    setRequestId(null);
    setCodeNotice(null);
    setToken(null);
    setVerifiedName(null);
    setProblem(null);
  };

  const showTimes = () => timesRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });

  const confirm = async (code?: string) => {
    const slot = slots.slot;
    if (!slot) {
      setProblem(CHOOSE_TIME_MESSAGE);
      showTimes();
      return;
    }
    setProblem(null);
    setLostNotice(null);
    let bearer = token;
    if (!bearer) {
      if (!requestId || !code) return;
      try {
        const verified = await verifyCode({ idCompany, requestId, code }).unwrap();
        bearer = verified.Token;
        setToken(verified.Token);
        setVerifiedName(verified.Name);
      } catch (failure) {
        if (statusOf(failure) === 422) codeForm.setError('code', { type: 'server', message: problemOf(failure) }, { shouldFocus: true });
        else setProblem(problemOf(failure));
        return;
      }
    }
    const booking = { idServices: [...serviceIds].sort((a, b) => a - b), ...slot };
    try {
      // The attempt is this booking: another choice is another attempt, with its own key.
      const send = (idempotencyKey: string) => book({ idCompany, token: bearer, idempotencyKey, booking }).unwrap();
      setBooked(await withKey(send, JSON.stringify(booking)));
    } catch (failure) {
      const status = statusOf(failure);
      if (status === 409) {
        // Taken meanwhile: the token stays, the client picks another time.
        setLostNotice(problemOf(failure));
        slots.refused(slot);
        showTimes();
      } else if (status === 401) {
        changeDetails();
        setProblem(problemOf(failure, EXPIRED_MESSAGE));
      } else {
        setProblem(problemOf(failure));
      }
    }
  };

  const { errors } = detailsForm.formState;
  const codeErrors = codeForm.formState.errors;
  const hasServices = serviceIds.length > 0;
  const chosenServices = unit.Services.filter((service) => serviceIds.includes(service.IdService));
  const professionalName =
    slots.idProfessional === null
      ? 'Sem preferência'
      : (professionals.find((p) => p.IdProfessional === slots.idProfessional)?.Name ?? '');

  return (
    <BookingFrame>
      <UnitHeader unit={unit} />

      <Step n={1} title="Serviços" id="ob-step-services">
        {unit.Services.length === 0 ? (
          <p className="empty">{NO_SERVICES_MESSAGE}</p>
        ) : (
          <fieldset className="ob-options">
            <legend className="visually-hidden">Serviços</legend>
            {unit.Services.map((service) => (
              <label key={service.IdService} className="ob-option">
                <input
                  type="checkbox"
                  checked={serviceIds.includes(service.IdService)}
                  onChange={() => toggleService(service.IdService)}
                />
                <span className="ob-option-text">
                  <span className="ob-option-name">{service.Name}</span>
                  <span className="ob-option-meta">{durationLabel(service)}</span>
                </span>
                <span className="ob-option-price">{priceLabel(service)}</span>
              </label>
            ))}
          </fieldset>
        )}
      </Step>

      {hasServices && (
        <Step n={2} title="Profissional" id="ob-step-professional">
          <ProfessionalCards
            professionals={professionals}
            value={slots.idProfessional}
            onChange={(id) => {
              slots.chooseProfessional(id);
              setLostNotice(null);
            }}
          />
        </Step>
      )}

      {hasServices && (
        <div ref={timesRef} className="ob-anchor">
          <Step n={3} title="Dia e horário" id="ob-step-time">
            <DayTimePicker timeZone={unit.TimeZone} slots={slots} notice={lostNotice} />
          </Step>
        </div>
      )}

      {/* The details show from the first chosen time on, and stay when a time is lost. */}
      {slots.reached && (
        <Step n={4} title="Seus dados" id="ob-step-details">
          {slots.slot && (
            <p className="ob-choice" aria-live="polite">
              {chosenServices.map((service) => service.Name).join(', ')} · {dayLongLabel(slots.slot.date)} às{' '}
              {shortTime(slots.slot.startTime)} · {professionalName}
            </p>
          )}
          {token ? (
            <p className="ob-verified">
              Verificado{verifiedName ? ` como ${verifiedName}` : ''}.{' '}
              <button type="button" className="button-link ob-inline" onClick={changeDetails} disabled={working}>
                Alterar dados
              </button>
            </p>
          ) : (
            <Form form={detailsForm} onSubmit={sendCode} aria-label="Seus dados">
              <fieldset className="ob-fields" disabled={!!requestId || codeCall.isLoading}>
                <legend className="visually-hidden">Seus dados</legend>
                <TextField label="Nome" autoComplete="name" error={errors.name?.message} {...detailsForm.register('name')} />
                <TextField
                  label="Celular"
                  mask="phone"
                  type="tel"
                  autoComplete="tel-national"
                  error={errors.phone?.message}
                  {...detailsForm.register('phone')}
                />
                {/* Explicit consent (LGPD): unticked until the client ticks it. */}
                <CheckboxField label={WHATSAPP_CONSENT_LABEL} {...detailsForm.register('whatsApp')} />
                <TextField label="CPF" mask="cpf" error={errors.cpf?.message} {...detailsForm.register('cpf')} />
                <TextField
                  label="E-mail (opcional)"
                  type="email"
                  autoComplete="email"
                  error={errors.email?.message}
                  {...detailsForm.register('email')}
                />
              </fieldset>
              <p className="muted ob-small">
                Enviaremos um código de 6 dígitos por e-mail para confirmar o agendamento. Se você já é cliente, ele vai
                para o e-mail do seu cadastro.
              </p>
              {requestId ? (
                <button type="button" className="button button-secondary" onClick={changeDetails}>
                  Alterar dados
                </button>
              ) : (
                <button
                  type="submit"
                  className="button button-primary button-block"
                  disabled={codeCall.isLoading}
                  aria-busy={codeCall.isLoading || undefined}
                >
                  {codeCall.isLoading ? 'Enviando…' : 'Receber código'}
                </button>
              )}
            </Form>
          )}
        </Step>
      )}

      {requestId && !token && (
        <Step n={5} title="Código de confirmação" id="ob-step-code">
          {codeNotice && (
            <p className="ob-info" role="status">
              {codeNotice}
            </p>
          )}
          <Form form={codeForm} onSubmit={({ code }) => confirm(code.trim())} aria-label="Código de confirmação">
            <TextField
              label="Código"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              error={codeErrors.code?.message}
              {...codeForm.register('code')}
            />
            <button type="submit" className="button button-primary button-block" disabled={working} aria-busy={working || undefined}>
              {working ? 'Confirmando…' : 'Confirmar agendamento'}
            </button>
            <button
              type="button"
              className="button-link ob-resend"
              disabled={codeCall.isLoading || working}
              onClick={() => void detailsForm.handleSubmit(resendCode)()}
            >
              {codeCall.isLoading ? 'Enviando…' : 'Reenviar código'}
            </button>
          </Form>
        </Step>
      )}

      {token && (
        <div className="ob-confirm">
          <button
            type="button"
            className="button button-primary button-block"
            disabled={working}
            aria-busy={working || undefined}
            onClick={() => void confirm()}
          >
            {working ? 'Confirmando…' : 'Confirmar agendamento'}
          </button>
        </div>
      )}

      <Alert message={problem} />
    </BookingFrame>
  );
}

/** The booking made: what, when, where, a calendar file and the link to change it. */
function Confirmation({ booking, unit, name }: { booking: CreatedBooking; unit: OnlineUnit; name: string | null }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus (and so the view) goes to the news.
  useEffect(() => heading.current?.focus(), []);
  // Always in the booking call's answer: the server leaves it out only of a move's.
  const manageToken = booking.ManageToken ?? '';
  const url = manageUrl(unit.IdCompany, manageToken);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      // No clipboard here (an insecure origin, a refusal): the link is in the field to copy by hand.
    }
  };
  return (
    <BookingFrame>
      <section className="ob-done" aria-labelledby="ob-done-title">
        <h1 id="ob-done-title" className="ob-unit-name" tabIndex={-1} ref={heading}>
          Agendamento confirmado!
        </h1>
        <p>{name ? `${name}, seu horário está reservado.` : 'Seu horário está reservado.'}</p>
        <BookingSummary booking={booking} />
        <div className="ob-actions">
          <CalendarButton booking={booking} url={url} />
          <Link className="button button-primary" to={managePath(unit.IdCompany, manageToken)}>
            {booking.Changeable ? 'Cancelar ou remarcar' : 'Ver agendamento'}
          </Link>
        </div>
        {booking.Changeable ? (
          <p className="muted ob-small">
            Guarde o link do agendamento: por ele você cancela ou remarca até {unit.CancelCutoffHours}{' '}
            {unit.CancelCutoffHours === 1 ? 'hora' : 'horas'} antes do horário. Ele também vai no arquivo do calendário.
          </p>
        ) : (
          // Booked inside the cut-off: it can no longer be changed online.
          <div className="ob-note">
            <p>Este horário já não pode ser alterado online. Para cancelar ou remarcar, fale com a barbearia.</p>
            <ContactLink unit={unit} />
          </div>
        )}
        <div className="ob-copy">
          <ReadOnlyField label="Link do agendamento" value={url} />
          <button type="button" className="button button-secondary" onClick={() => void copy()}>
            {copied ? 'Copiado!' : 'Copiar link'}
          </button>
        </div>
      </section>
    </BookingFrame>
  );
}
