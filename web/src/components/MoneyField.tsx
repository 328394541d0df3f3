import { useId } from 'react';
import { formatBRL, moneyFromDigits } from '@/lib/money';

interface MoneyFieldProps {
  label: string;
  /** Reais (cents divided by 100). */
  value: number;
  onChange: (value: number) => void;
  error?: string;
  disabled?: boolean;
}

/** Money in BRL: digits fill from the cents up ('3', '35', '350' → R$ 3,50). */
export function MoneyField({ label, value, onChange, error, disabled }: MoneyFieldProps) {
  const id = useId();
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <div className="field-control">
        <input
          id={id}
          inputMode="numeric"
          placeholder=" "
          disabled={disabled}
          value={formatBRL(value)}
          aria-invalid={error ? true : undefined}
          onChange={(event) => onChange(moneyFromDigits(event.target.value))}
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
