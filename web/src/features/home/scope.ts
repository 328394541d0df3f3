import { useEffect, useMemo, useState } from 'react';
import { useAppSelector } from '@/state/hooks';
import type { Company } from '@/state/sessionSlice';

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

/** Date.now(), refreshed every minute (what 'from now' means moves on). */
export function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}
