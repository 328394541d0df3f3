import { skipToken } from '@reduxjs/toolkit/query';
import { type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useLiveChanges } from '@/api/liveChanges';
import { DataTable, type Column } from '@/components/list/ListPage';
import { LoadFailed } from '@/components/LoadFailed';
import { UnitSelectField, useChosenUnit } from '@/components/staff/UnitSelect';
import { TextField } from '@/components/TextField';
import { todayIso } from '@/lib/dates';
import { useGetMessageDayQuery } from './messagesApi';
import {
  appointmentText,
  attemptsText,
  dayFigures,
  dayOfInput,
  deliveryState,
  kindLabel,
  LOAD_FAILED,
  NO_MESSAGES,
  phoneText,
  replyText,
} from './model';
import type { MessageItem, MessageTotals } from './types';
import './messages.css';

/** The client, and the number the message went to. */
function ClientCell({ item }: { item: MessageItem }) {
  return (
    <span className="messages-client">
      <span className="messages-client-name">{item.UserName}</span>
      <span className="messages-client-phone">{phoneText(item.To)}</span>
    </span>
  );
}

/** 'dd/mm HH:MM', and 'Cancelado' when the appointment no longer stands. */
function AppointmentCell({ item }: { item: MessageItem }) {
  return (
    <span className="messages-appointment">
      <span>{appointmentText(item)}</span>
      {!item.Status && <span className="badge badge-danger">Cancelado</span>}
    </span>
  );
}

/** The delivery in words (the provider's error as its title), and the attempts when more than one. */
function DeliveryCell({ item }: { item: MessageItem }) {
  const state = deliveryState(item);
  const attempts = attemptsText(item.Attempts);
  return (
    <span className="messages-delivery">
      <span className={`messages-delivery-state messages-delivery-${state.tone}`} title={state.title}>
        {state.label}
      </span>
      {attempts && <span className="messages-attempts">{attempts}</span>}
    </span>
  );
}

const columns: Column<MessageItem>[] = [
  { header: 'Hora', cell: (item) => item.SentAt, className: 'messages-time' },
  { header: 'Cliente', cell: (item) => <ClientCell item={item} /> },
  { header: 'Agendamento', cell: (item) => <AppointmentCell item={item} /> },
  { header: 'Profissional', cell: (item) => item.ProfessionalName },
  { header: 'Lembrete', cell: (item) => kindLabel(item.Kind) },
  { header: 'Entrega', cell: (item) => <DeliveryCell item={item} /> },
  { header: 'Resposta', cell: (item) => replyText(item) },
];

/** The day's figures as tiles: a description list (term: label; description: value). */
function DayFigures({ totals }: { totals: MessageTotals }) {
  return (
    <dl className="messages-figures" aria-label="Números do dia">
      {dayFigures(totals).map((figure) => (
        <div key={figure.label} className="messages-figure">
          <dt>{figure.label}</dt>
          <dd>{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * /dashboard/messages ('Mensagens', issue 44; ADMIN): a unit's WhatsApp reminders sent on a
 * day, with their delivery and the client's reply, and the day's figures. The day lives in
 * the address (?date), today on the unit's clock by default; replies and delivery reports
 * arrive live.
 */
export default function MessagesPage() {
  useLiveChanges();
  const { units, unit } = useChosenUnit();
  const today = todayIso(Date.now(), unit?.TimeZone);
  const [params, setParams] = useSearchParams();
  const date = dayOfInput(params.get('date')) ?? today;

  // currentData: another unit's or day's answer never stands in for the one asked.
  const { currentData: day, isFetching, isError, refetch } = useGetMessageDayQuery(
    unit ? { idCompany: unit.IdCompany, date } : skipToken,
    { refetchOnMountOrArgChange: true },
  );

  const showDay = (value: string) => {
    const chosen = dayOfInput(value);
    setParams(chosen && chosen !== today ? { date: chosen } : {}, { replace: true });
  };

  let body: ReactNode;
  if (!unit) {
    body = <p className="page-loading">{units ? 'Nenhuma unidade encontrada.' : 'Carregando...'}</p>;
  } else if (day) {
    body = (
      <>
        <DayFigures totals={day.Totals} />
        <DataTable
          label="Mensagens do dia"
          columns={columns}
          rows={day.Messages}
          rowKey={(item) => item.Key}
          emptyText={NO_MESSAGES}
          loading={isFetching}
        />
      </>
    );
  } else if (isError && !isFetching) {
    body = <LoadFailed text={LOAD_FAILED} onRetry={refetch} />;
  } else {
    body = <p className="page-loading">Carregando...</p>;
  }

  return (
    <section className="page messages-page" aria-busy={isFetching || undefined}>
      <header className="list-page-header">
        <h1 className="page-title">Mensagens</h1>
      </header>
      <div className="messages-filters">
        <UnitSelectField />
        <TextField label="Dia" type="date" max={today} value={date} onChange={(event) => showDay(event.target.value)} />
      </div>
      {body}
    </section>
  );
}
