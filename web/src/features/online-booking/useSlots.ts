import { useCallback, useMemo, useState } from 'react';
import type { FreeHour } from '@/features/agenda';
import { availableDates, isOffered, withoutTaken, type TakenSlot } from './booking';
import { useGetOnlineFreeTimesQuery } from './onlineBookingApi';
import type { SlotChoice } from './types';

export interface SlotsOptions {
  /** The manage link's token, when moving that booking: its own time counts as free. */
  bookingToken?: string;
  /** The day shown first, when it has free times (the booking's own day, when moving it). */
  initialDate?: string;
}

/**
 * A professional ('Sem preferência' is null), a day and a free time for some services, from
 * the public free-times call (the staff's read model). The day defaults to `initialDate` or
 * the first with free times; a choice the times no longer offer is dropped.
 */
export function useSlots(
  idCompany: number,
  idServices: number[],
  initialProfessional: number | null = null,
  { bookingToken, initialDate }: SlotsOptions = {},
) {
  const [idProfessional, setProfessional] = useState<number | null>(initialProfessional);
  const [date, setDate] = useState<string | null>(initialDate ?? null);
  const [hour, setHour] = useState<FreeHour | null>(null);
  const [taken, setTaken] = useState<TakenSlot[]>([]);
  // Whether a time was ever chosen: what follows the times shows from then on.
  const [reached, setReached] = useState(false);
  const services = useMemo(() => [...idServices].sort((a, b) => a - b), [idServices]);
  const query = useGetOnlineFreeTimesQuery(
    { idCompany, idServices: services, idProfessional, ...(bookingToken ? { bookingToken } : {}) },
    { skip: !services.length },
  );
  // The current arguments' answer only: times of other services are never offered.
  const times = useMemo(() => withoutTaken(query.currentData?.times, taken), [query.currentData, taken]);
  const days = useMemo(() => availableDates(times, idProfessional), [times, idProfessional]);
  const shownDate = date && days.includes(date) ? date : (days[0] ?? null);
  const chosen = hour && shownDate && isOffered(times, shownDate, hour.start, idProfessional) ? hour : null;
  const slot: SlotChoice | null = chosen && shownDate ? { idProfessional, date: shownDate, startTime: chosen.start } : null;

  const chooseProfessional = useCallback((id: number | null) => {
    setProfessional(id);
    setHour(null);
  }, []);
  const chooseDate = useCallback((iso: string) => {
    setDate(iso);
    setHour(null);
  }, []);
  const chooseHour = useCallback((free: FreeHour) => {
    setHour(free);
    setReached(true);
  }, []);
  const { refetch } = query;
  /** The server refused this time: never offer it again here, and read the times afresh. */
  const refused = useCallback(
    (lost: SlotChoice) => {
      setTaken((list) => [...list, lost]);
      setHour(null);
      if (services.length) void refetch();
    },
    [refetch, services.length],
  );

  return {
    idProfessional,
    chooseProfessional,
    days,
    date: shownDate,
    chooseDate,
    times,
    hour: chosen,
    chooseHour,
    reached,
    slot,
    hasServices: services.length > 0,
    loading: query.isFetching && !query.currentData,
    refreshing: query.isFetching && !!query.currentData,
    failed: query.isError,
    refetch,
    refused,
  };
}

export type Slots = ReturnType<typeof useSlots>;
