import type { ReactNode } from 'react';

export interface ToggleOption<T extends string> {
  value: T;
  label: ReactNode;
}

interface ToggleGroupProps<T extends string> {
  /** The group's accessible name ('Visualização', 'Período'). */
  label: string;
  options: ToggleOption<T>[];
  value: T;
  onChange: (value: T) => void;
}

/** One choice among a few, as pressed buttons (the agenda's views, the home's periods). */
export function ToggleGroup<T extends string>({ label, options, value, onChange }: ToggleGroupProps<T>) {
  return (
    <div className="view-toggle" role="group" aria-label={label}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className={`toggle-button${value === option.value ? ' toggle-button-on' : ''}`}
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
