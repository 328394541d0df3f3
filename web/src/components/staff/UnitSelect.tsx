import { useMemberCompanies } from '@/api/companiesApi';
import type { CompanyDto } from '@/api/wire';
import { SelectField } from '@/components/form/fields';
import { useAppDispatch, useAppSelector } from '@/state/hooks';
import { companySelected, selectSelectedCompany } from '@/state/sessionSlice';

export interface ChosenUnit {
  /** The units the user belongs to; undefined while they load. */
  units: CompanyDto[] | undefined;
  /** The session's unit among them, else the first; null while loading or without units. */
  unit: CompanyDto | null;
}

/** The unit a unit-scoped page (caixa, stock, messages, commissions) shows. */
export function useChosenUnit(): ChosenUnit {
  const units = useMemberCompanies();
  const selected = useAppSelector(selectSelectedCompany);
  const unit = units?.find((c) => c.IdCompany === selected?.IdCompany) ?? units?.[0] ?? null;
  return { units, unit };
}

interface Props {
  /** Called after another unit is chosen (and made the session's). */
  onChosen?: (idCompany: number) => void;
}

/** 'Unidade': chooses the session's unit among the user's; disabled with only one. */
export function UnitSelectField({ onChosen }: Props) {
  const dispatch = useAppDispatch();
  const { units, unit } = useChosenUnit();
  return (
    <SelectField
      label="Unidade"
      options={(units ?? []).map((c) => ({ value: c.IdCompany, label: c.Name }))}
      value={unit?.IdCompany ?? ''}
      disabled={(units?.length ?? 0) <= 1}
      onChange={(event) => {
        const idCompany = Number(event.target.value);
        dispatch(companySelected(idCompany));
        onChosen?.(idCompany);
      }}
    />
  );
}
