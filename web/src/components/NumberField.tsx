import { useId } from 'react';

/** Default upper bound of a number input (spec 01 §5). */
export const NUMBER_MAX_DEFAULT = 9_999_999_999;

interface NumberFieldProps {
  label: string;
  value: number | '';
  onChange: (value: number | '') => void;
  minValue?: number;
  maxValue?: number;
  maxLength?: number;
  error?: string;
}

/** Whether a typed number fits the bounds (the input refuses it otherwise). */
export function acceptsNumber(text: string, { minValue, maxValue, maxLength }: Omit<NumberFieldProps, 'label' | 'value' | 'onChange' | 'error'>) {
  if (text === '') return true;
  if (!/^\d+$/.test(text)) return false;
  if (maxLength !== undefined && text.length > maxLength) return false;
  const upper = maxValue ?? (maxLength !== undefined ? Number('9'.repeat(maxLength)) : NUMBER_MAX_DEFAULT);
  const value = Number(text);
  if (value > upper) return false;
  if (minValue !== undefined && value < minValue) return false;
  return true;
}

/** Whole number with bounds: values below minValue, above maxValue or too long are refused. */
export function NumberField({ label, value, onChange, minValue, maxValue, maxLength, error }: NumberFieldProps) {
  const id = useId();
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <div className="field-control">
        <input
          id={id}
          inputMode="numeric"
          placeholder=" "
          value={value}
          onChange={(event) => {
            const text = event.target.value.trim();
            if (acceptsNumber(text, { minValue, maxValue, maxLength })) onChange(text === '' ? '' : Number(text));
          }}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
