import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import type { RoleType } from '@/api/types';
import { todayIso } from '@/lib/dates';
import { companySelected, selectCompanyList, type Company } from '@/state/sessionSlice';
import { agendaUnitChosen, selectAgendaUnit } from '@/state/uiSlice';
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

/**
 * The unit the agenda opens on (issue 45): the one the user last chose in the agenda, while it
 * is still one of their active units; otherwise null (the shell's unit stays, as before).
 */
export function rememberedAgendaUnit(remembered: string | undefined, companies: Company[]): number | null {
  if (!remembered) return null;
  const unit = companies.find((c) => !c.canHide && c.Status !== false && String(c.IdCompany) === remembered);
  return unit?.IdCompany ?? null;
}

/** The signed-in user's key in the per-user UI memory (their professional id), or null. */
const useUserKey = () =>
  useAppSelector((state) => (state.session.idProfessional === null ? null : String(state.session.idProfessional)));

/**
 * Opens the agenda on the unit the user last chose in it (issue 45), once per visit, as soon
 * as GET company (or the kept session) lists the units: the sign-in answer's stand-ins cannot
 * be selected. Leaves the shell's unit when it is that one already, so that the agenda's
 * professional filter (reset on a change of unit) stays.
 */
export function useAgendaOpensOnLastUnit() {
  const dispatch = useAppDispatch();
  const user = useUserKey();
  const companies = useAppSelector(selectCompanyList);
  const selected = useAppSelector((state) => state.session.selectedCompany?.IdCompany ?? null);
  const remembered = useAppSelector((state) => (user === null ? undefined : selectAgendaUnit(state, user)));
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !companies.length) return;
    opened.current = true;
    const unit = rememberedAgendaUnit(remembered, companies);
    if (unit !== null && unit !== selected) dispatch(companySelected(unit));
  }, [companies, remembered, selected, dispatch]);
}

/** The agenda's unit select: selects the unit and remembers it for the user's next visit (issue 45). */
export function useChooseAgendaUnit(): (idCompany: number) => void {
  const dispatch = useAppDispatch();
  const user = useUserKey();
  return useCallback(
    (idCompany: number) => {
      dispatch(companySelected(idCompany));
      if (user !== null) dispatch(agendaUnitChosen({ user, unit: String(idCompany) }));
    },
    [dispatch, user],
  );
}
