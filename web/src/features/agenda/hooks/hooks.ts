import { useEffect, useMemo, useState } from 'react';
import { useAppSelector } from '@/state/hooks';
import type { RoleType } from '@/api/types';
import { todayIso } from '@/lib/dates';
import { type Company } from '@/state/sessionSlice';
import { effectiveProfessional, mayChangeCompany, mayChooseAnyProfessional, selectAgenda } from '../model/agendaSlice';

/** Date.now(), refreshed every `intervalMs`. */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** The value, once it has stopped changing for `delayMs`. */
export function useDebounced<T>(value: T, delayMs = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** Who is looking at the agenda and what they may choose (spec 01 §6). */
export interface AgendaScope {
  role: RoleType | null;
  idProfessional: number | null;
  /** The units the user belongs to: the only ones that can be selected. */
  companies: Company[];
  company: Company | null;
  mayChangeCompany: boolean;
  mayChooseAnyProfessional: boolean;
  /** The professional filter actually applied (null: everyone). */
  professional: number | null;
  /** The day shown. */
  date: string;
  today: string;
}

export function useAgendaScope(now: number): AgendaScope {
  const session = useAppSelector((state) => state.session);
  const agenda = useAppSelector(selectAgenda);
  const role = session.role?.Type ?? null;
  const companies = useMemo((): Company[] => {
    const own = session.companyList.filter((c) => !c.canHide && c.Status !== false);
    // Before GET company answers, the sign-in answer's units stand in.
    return own.length ? own : session.companies.map((c) => ({ ...c, canHide: false }));
  }, [session.companyList, session.companies]);
  const company =
    companies.find((c) => c.IdCompany === session.selectedCompany?.IdCompany) ?? companies[0] ?? null;
  const today = todayIso(now, company?.TimeZone);
  return {
    role,
    idProfessional: session.idProfessional,
    companies,
    company,
    mayChangeCompany: mayChangeCompany(role),
    mayChooseAnyProfessional: mayChooseAnyProfessional(role, session.idProfessional),
    professional: effectiveProfessional(agenda.idProfessional, role, session.idProfessional),
    date: agenda.date ?? today,
    today,
  };
}
