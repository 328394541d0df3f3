import { useId, useState, type ChangeEvent, type InputHTMLAttributes, type Ref } from 'react';
import { masks, type MaskName } from '@/lib/masks';
import { Icon } from './Icon';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string;
  ref?: Ref<HTMLInputElement>;
  /** Formats what is typed (CPF, CNPJ, CEP, phone, time). */
  mask?: MaskName;
  /** 'search' shows a magnifier; 'add' a button calling onAdd. */
  variant?: 'search' | 'add';
  onAdd?: () => void;
  addLabel?: string;
}

const maskLength: Record<MaskName, number> = { cpf: 14, cnpj: 18, cep: 10, phone: 15, time: 5 };

/**
 * Floating-label input with its error message; passwords get a visibility toggle, masked
 * fields format as the user types (works with react-hook-form's register and with
 * controlled values alike).
 */
export function TextField({
  label,
  error,
  type = 'text',
  className,
  ref,
  mask,
  variant,
  onAdd,
  addLabel = 'Adicionar',
  onChange,
  ...inputProps
}: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const [revealed, setRevealed] = useState(false);
  const isPassword = type === 'password';

  const change = (event: ChangeEvent<HTMLInputElement>) => {
    if (mask) event.target.value = masks[mask](event.target.value);
    onChange?.(event);
  };

  return (
    <div className={`field${error ? ' field-invalid' : ''}${className ? ` ${className}` : ''}`}>
      <div className="field-control">
        <input
          inputMode={mask && mask !== 'cnpj' ? 'numeric' : undefined}
          maxLength={mask ? maskLength[mask] : undefined}
          {...inputProps}
          onChange={change}
          ref={ref}
          id={id}
          type={isPassword && revealed ? 'text' : type}
          placeholder=" "
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <label htmlFor={id}>{label}</label>
        {isPassword && (
          <button
            type="button"
            className="field-adornment"
            aria-label={revealed ? 'Ocultar senha' : 'Mostrar senha'}
            onClick={() => setRevealed((value) => !value)}
          >
            <Icon name={revealed ? 'visibilityOff' : 'visibility'} />
          </button>
        )}
        {variant === 'search' && (
          <span className="field-adornment" aria-hidden="true">
            <Icon name="search" />
          </span>
        )}
        {variant === 'add' && (
          <button type="button" className="field-adornment" aria-label={addLabel} onClick={onAdd}>
            <Icon name="add" />
          </button>
        )}
      </div>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

interface TextAreaFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
  rows?: number;
}

/** Floating-label text box. */
export function TextAreaField({ label, value, onChange, maxLength = 500, rows = 3 }: TextAreaFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <div className="field-control">
        <textarea
          id={id}
          value={value}
          rows={rows}
          maxLength={maxLength}
          placeholder=" "
          onChange={(event) => onChange(event.target.value)}
        />
        <label htmlFor={id}>{label}</label>
      </div>
    </div>
  );
}
