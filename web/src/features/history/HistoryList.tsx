import { skipToken } from '@reduxjs/toolkit/query';
import { useMemo } from 'react';
import { useAppSelector } from '@/state/hooks';
import { classifyError } from '@/api/errors';
import { useGetActiveServicesQuery } from '@/components/staff/staffApi';
import { selectCompanyList } from '@/state/sessionSlice';
import { describeHistory, type HistoryNames } from './format';
import { useGetHistoryQuery } from './historyApi';
import type { HistoryTarget } from './types';
import './history.css';

export const HISTORY_ERROR = 'Não foi possível carregar o histórico.';
export const HISTORY_EMPTY = 'Nenhum evento encontrado';

interface HistoryListProps {
  target: HistoryTarget;
  /** The list's accessible name ('Histórico do cliente', ...). */
  label: string;
  /** Names the screen knows (the unit's professionals, the appointment's client...). */
  names?: HistoryNames;
}

/**
 * A record's change history (ADMIN), newest first: what happened, when, who (name and role)
 * and each field from → to. Read afresh each time it opens.
 */
export function HistoryList({ target, label, names }: HistoryListProps) {
  const { data, isLoading, error } = useGetHistoryQuery(target, { refetchOnMountOrArgChange: true });
  const companyList = useAppSelector(selectCompanyList);
  // A professional's services are named from the catalogue.
  const services = useGetActiveServicesQuery(target.subject === 'professional' ? undefined : skipToken);

  const entries = useMemo(() => {
    if (!data) return null;
    const known: HistoryNames = {
      companies: Object.fromEntries(companyList.map((c) => [c.IdCompany, c.Name])),
      services: Object.fromEntries((services.data ?? []).map((s) => [s.IdService, s.Description])),
      ...names,
    };
    return describeHistory(data, target.subject, known);
  }, [data, companyList, services.data, names, target.subject]);

  if (isLoading) return <p className="empty">Carregando...</p>;
  if (error && !entries) {
    const outcome = 'status' in error ? classifyError(error) : null;
    return <p className="empty">{outcome?.kind === 'toast' ? outcome.message : HISTORY_ERROR}</p>;
  }
  if (!entries || entries.length === 0) return <p className="empty">{HISTORY_EMPTY}</p>;

  return (
    <ol className="history-list" aria-label={label}>
      {entries.map((entry) => (
        <li key={entry.key} className="history-entry">
          <div className="history-entry-head">
            <span className="history-title">{entry.title}</span>
            <time className="history-when" dateTime={entry.at}>
              {entry.when}
            </time>
          </div>
          <p className="history-who">
            <span className="visually-hidden">Por </span>
            {entry.who}
            <span className="history-role">{entry.role}</span>
          </p>
          {entry.reason && <p className="history-reason">{entry.reason}</p>}
          {entry.changes.length > 0 && (
            <dl className="history-changes">
              {entry.changes.map((change) => (
                <div key={change.field} className="history-change">
                  <dt>{change.label}</dt>
                  <dd>
                    {change.from !== null && (
                      <>
                        <span className="history-from">{change.from}</span>
                        <span className="history-arrow" aria-hidden="true">
                          →
                        </span>
                        <span className="visually-hidden"> para </span>
                      </>
                    )}
                    <span className="history-to">{change.to}</span>
                  </dd>
                </div>
              ))}
            </dl>
          )}
        </li>
      ))}
    </ol>
  );
}
