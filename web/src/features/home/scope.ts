import { useEffect, useMemo, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import type { Company } from '@/state/sessionSlice';
import { homeUnitChosen, selectHomeUnit } from '@/state/uiSlice';
import type { Period } from './homeApi';
import { ALL_UNITS, homeUnit, mayChooseAllUnits } from './shaping';

/** Who is looking at the home: their role, professional and units (spec 01 §6). */
export function useHomeScope() {
  const session = useAppSelector((state) => state.session);
  const companies = useMemo((): Omit<Company, 'canHide'>[] => {
    const own = session.companyList.filter((c) => !c.canHide && c.Status !== false);
    // Before GET company answers, the sign-in answer's units stand in.
    return own.length ? own : session.companies;
  }, [session.companyList, session.companies]);
  // The shell's selected unit, or the first one.
  const company = companies.find((c) => c.IdCompany === session.selectedCompany?.IdCompany) ?? companies[0] ?? null;
  return { role: session.role?.Type ?? null, idProfessional: session.idProfessional, companies, company };
}

export type HomeScope = ReturnType<typeof useHomeScope>;

/** The home's unit and period switches, shared by the desktop and the phone. */
export interface HomeFilters {
  period: Period;
  setPeriod: (period: Period) => void;
  /** '' for every unit, otherwise the unit's id. */
  unit: string;
  setUnit: (unit: string) => void;
  unitOptions: { value: string; label: string }[];
  /** What GET dashboard takes: null for every unit. */
  idCompany: number | null;
}

/**
 * The period ('Hoje' on every visit) and the unit: the one the user last chose on the home,
 * kept per user in the persisted UI state (issue 45), or 'Todas as unidades' on a first visit
 * when the role may see them all (shaping's `homeUnit`).
 */
export function useHomeFilters(scope: HomeScope): HomeFilters {
  const dispatch = useAppDispatch();
  const [period, setPeriod] = useState<Period>('today');
  const user = scope.idProfessional === null ? null : String(scope.idProfessional);
  const stored = useAppSelector((state) => (user === null ? undefined : selectHomeUnit(state, user)));
  // A session without a professional id (none the server gives today) keeps it for the visit.
  const [unsaved, setUnsaved] = useState<string>();
  const remembered = user === null ? unsaved : stored;
  const allowAll = mayChooseAllUnits(scope.role, scope.companies.length);
  const unit = homeUnit(remembered, allowAll, scope.companies, scope.company);
  const unitOptions = [
    ...(allowAll ? [{ value: '', label: ALL_UNITS }] : []),
    ...scope.companies.map((c) => ({ value: String(c.IdCompany), label: c.Name })),
  ];
  const setUnit = (chosen: string) => {
    if (user === null) setUnsaved(chosen);
    else dispatch(homeUnitChosen({ user, unit: chosen }));
  };
  return { period, setPeriod, unit, setUnit, unitOptions, idCompany: unit ? Number(unit) : null };
}

/** Date.now(), refreshed every minute (what 'from now' means moves on). */
export function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}
