import { SelectField } from '@/components/form/fields';
import { ToggleGroup } from '@/components/ToggleGroup';
import type { HomeFilters } from './scope';
import { PERIOD_OPTIONS } from './shaping';

/** 'Unidade' and 'Período', on the desktop and the phone alike (stacked on the phone by home.css). */
export function FilterBar({ filters }: { filters: HomeFilters }) {
  return (
    <div className="home-filters">
      <SelectField
        label="Unidade"
        className="home-unit"
        options={filters.unitOptions}
        value={filters.unit}
        disabled={filters.unitOptions.length <= 1}
        onChange={(event) => filters.setUnit(event.target.value)}
      />
      <ToggleGroup label="Período" options={PERIOD_OPTIONS} value={filters.period} onChange={filters.setPeriod} />
    </div>
  );
}
