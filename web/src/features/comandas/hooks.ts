import { useMemo } from 'react';
import { useGetUnitProfessionalsQuery } from '@/features/agenda/api/agendaApi';

/** The unit's professionals: the options of a picker and their names by id. */
export function useUnitProfessionals(idCompany: number) {
  const { data } = useGetUnitProfessionalsQuery(idCompany);
  return useMemo(() => {
    const professionals = data ?? [];
    return {
      loaded: !!data,
      options: professionals.map((p) => ({ value: p.IdProfessional, label: p.Name })),
      names: new Map(professionals.map((p) => [p.IdProfessional, p.Name])),
    };
  }, [data]);
}
