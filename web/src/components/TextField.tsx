import { useId, useState, type InputHTMLAttributes, type Ref } from 'react';
import { Icon } from './Icon';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string;
  ref?: Ref<HTMLInputElement>;
}

/** Floating-label input with its error message; passwords get a visibility toggle. */
export function TextField({ label, error, type = 'text', className, ref, ...inputProps }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const [revealed, setRevealed] = useState(false);
  const isPassword = type === 'password';

  return (
    <div className={`field${error ? ' field-invalid' : ''}${className ? ` ${className}` : ''}`}>
      <div className="field-control">
        <input
          {...inputProps}
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
      </div>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
