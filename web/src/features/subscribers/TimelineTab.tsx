import { useState, type FormEvent } from 'react';
import { Icon } from '@/components/Icon';
import { TextField } from '@/components/TextField';
import { useGetSubscriberTimelineQuery } from './subscribersApi';
import { describeEntry, pastViewOfEntry, pastViewOfInput, wallClockInput, type PastView } from './timeline';

interface TimelineTabProps {
  id: number;
  view: PastView | null;
  onView: (view: PastView) => void;
}

/** Histórico (ADMIN): every change, newest first; choosing one, or a typed instant, opens the past view. */
export function TimelineTab({ id, view, onView }: TimelineTabProps) {
  const { data: entries, isLoading, isError } = useGetSubscriberTimelineQuery(id);
  const [typed, setTyped] = useState(() => (view && pastViewOfInput(view.asOf) ? view.asOf : wallClockInput()));
  const [invalid, setInvalid] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = pastViewOfInput(typed);
    setInvalid(!chosen);
    if (chosen) onView(chosen);
  };

  return (
    <div className="subscriber-history">
      <form className="subscriber-as-of" onSubmit={submit} aria-label="Ver como estava em uma data">
        <TextField
          label="Data e hora (horário de Brasília)"
          type="datetime-local"
          value={typed}
          error={invalid ? 'Digite uma data e hora válidas' : undefined}
          onChange={(event) => setTyped(event.target.value)}
        />
        <button type="submit" className="button button-primary">
          Ver
        </button>
      </form>
      <p className="muted subscriber-history-hint">
        Escolha um evento ou digite uma data e hora para ver a assinatura como estava naquele momento.
      </p>
      {isLoading && <p className="empty">Carregando...</p>}
      {isError && <p className="empty">Não foi possível carregar o histórico.</p>}
      {entries && entries.length === 0 && <p className="empty">Nenhum evento encontrado</p>}
      {entries && entries.length > 0 && (
        <ol className="timeline-list" aria-label="Histórico da assinatura">
          {[...entries].reverse().map((entry) => {
            const text = describeEntry(entry);
            const selected = view?.asOf === entry.At;
            return (
              <li key={entry.Sequence} className={`timeline-item timeline-${text.tone}`}>
                <button
                  type="button"
                  className="timeline-entry"
                  aria-pressed={selected}
                  onClick={() => onView(pastViewOfEntry(entry))}
                >
                  <span className="timeline-when">{text.when}</span>
                  <span className="timeline-title">{text.title}</span>
                  {text.details.map((line) => (
                    <span key={line} className="timeline-detail">
                      {line}
                    </span>
                  ))}
                  <span className="timeline-cause">Origem: {text.cause}</span>
                  <span className="timeline-go">
                    Ver como estava <Icon name="chevronRight" />
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
