import { useId, type InputHTMLAttributes, type Ref, type SelectHTMLAttributes } from 'react';

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  options: readonly { value: string | number; label: string }[];
  error?: string;
  ref?: Ref<HTMLSelectElement>;
}

/** A native select with the floating-label look of TextField (works with register). */
export function SelectField({ label, options, error, ref, className, ...selectProps }: SelectFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`field field-select${error ? ' field-invalid' : ''}${className ? ` ${className}` : ''}`}>
      <div className="field-control">
        <select
          {...selectProps}
          ref={ref}
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <label htmlFor={id}>{label}</label>
      </div>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  label: string;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled checkbox (works with register). */
export function CheckboxField({ label, ref, className, ...inputProps }: CheckboxFieldProps) {
  const id = useId();
  return (
    <div className={`checkbox field-checkbox${className ? ` ${className}` : ''}`}>
      <input {...inputProps} ref={ref} id={id} type="checkbox" />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** Read-only value shown in a form (last access, login type). */
export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div className="field">
      <div className="field-control">
        <input id={id} value={value} readOnly placeholder=" " />
        <label htmlFor={id}>{label}</label>
      </div>
    </div>
  );
}

/** Status options of forms (spec 02 §4: Ativo / Inativo). */
export const STATUS_OPTIONS = [
  { value: 'true', label: 'Ativo' },
  { value: 'false', label: 'Inativo' },
] as const;
