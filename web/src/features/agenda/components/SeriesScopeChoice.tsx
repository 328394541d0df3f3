import { useId, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import {
  CHANGE_SERIES_TITLE,
  CONTINUE_LABEL,
  SERIES_SCOPES,
  SERIES_SCOPE_LEGEND,
  changeSeriesText,
  type SeriesScope,
} from '../model/series';
import type { SeriesAnswer } from '../model/types';
import './Series.css';

/**
 * Which of a series' appointments (issue 45): 'Somente este', 'Este e os seguintes' or
 * 'Todos', as radios under `legend` (hidden with `hideLegend`, when the text above says it).
 */
export function SeriesScopeChoice({
  legend,
  hideLegend = false,
  value,
  onChange,
}: {
  legend: ReactNode;
  hideLegend?: boolean;
  value: SeriesScope;
  onChange: (scope: SeriesScope) => void;
}) {
  const name = useId();
  return (
    <fieldset className="radio-group series-scope">
      <legend className={hideLegend ? 'visually-hidden' : undefined}>{legend}</legend>
      {SERIES_SCOPES.map((option) => (
        <label key={option.value}>
          <input type="radio" name={name} checked={value === option.value} onChange={() => onChange(option.value)} />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * 'Alterar série': asked before an edit's save or a grid move of a series' appointment is
 * sent. 'Somente este' (the default) is the single edit; null is 'Cancelar'.
 */
export function SeriesChangeDialog({ series, onAnswer }: { series: SeriesAnswer; onAnswer: (scope: SeriesScope | null) => void }) {
  const [scope, setScope] = useState<SeriesScope>('ONE');
  return (
    <ConfirmDialog
      open
      title={CHANGE_SERIES_TITLE}
      confirmLabel={CONTINUE_LABEL}
      cancelLabel="Cancelar"
      onConfirm={() => onAnswer(scope)}
      onCancel={() => onAnswer(null)}
    >
      <p>{changeSeriesText(series)}</p>
      <SeriesScopeChoice legend={SERIES_SCOPE_LEGEND} hideLegend value={scope} onChange={setScope} />
    </ConfirmDialog>
  );
}
