import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { Icon } from '@/components/Icon';

/** Multi-select search debounce (spec 02 §9). */
export const MULTI_SELECT_DEBOUNCE_MS = 200;

export interface MultiSelectOption {
  value: number;
  label: string;
  detail?: string;
}

interface MultiSelectProps {
  label: string;
  options: MultiSelectOption[];
  value: number[];
  onChange: (value: number[]) => void;
  disabled?: boolean;
  error?: string;
  emptyText?: string;
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();

/**
 * A searchable list of checkable options (a combobox with a multi-selectable listbox); the
 * chosen ones show as chips that can be removed. The search filters after a 200 ms pause.
 */
export function MultiSelect({
  label,
  options,
  value,
  onChange,
  disabled,
  error,
  emptyText = 'Nenhum registro encontrado',
}: MultiSelectProps) {
  const id = useId();
  const listId = `${id}-list`;
  const errorId = `${id}-error`;
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);

  useEffect(() => {
    const timer = window.setTimeout(() => setQuery(text), MULTI_SELECT_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);

  const shown = useMemo(() => {
    const needle = fold(query.trim());
    return needle
      ? options.filter((option) => fold(option.label).includes(needle) || fold(option.detail ?? '').includes(needle))
      : options;
  }, [options, query]);
  const chosen = options.filter((option) => value.includes(option.value));

  const toggle = (option: MultiSelectOption) =>
    onChange(value.includes(option.value) ? value.filter((v) => v !== option.value) : [...value, option.value]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!open) setOpen(true);
      else setActive((index) => Math.min(shown.length - 1, index + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => Math.max(0, index - 1));
    } else if (event.key === 'Enter' && open) {
      // Enter picks an option instead of submitting the form.
      event.preventDefault();
      if (shown[active]) toggle(shown[active]);
    } else if (event.key === 'Escape' && open) {
      event.stopPropagation();
      setOpen(false);
      setText('');
    }
  };

  return (
    <div className={`field multi-select${error ? ' field-invalid' : ''}`}>
      {/* The list opens under the input, over the chips. */}
      <div className={`select multi-select-box${open ? ' select-open' : ''}`}>
      <div className="field-control">
        <input
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          aria-activedescendant={open && shown[active] ? `${id}-option-${active}` : undefined}
          autoComplete="off"
          placeholder=" "
          disabled={disabled}
          value={text}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={() => {
            // The chips show what is chosen; the search starts afresh next time.
            setOpen(false);
            setText('');
          }}
          onKeyDown={onKeyDown}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
            setOpen(true);
          }}
        />
        <label htmlFor={id}>{label}</label>
        <span className="field-adornment select-arrow" aria-hidden="true">
          <Icon name="expandMore" />
        </span>
      </div>
      {open && (
        <ul id={listId} role="listbox" aria-label={label} aria-multiselectable="true" className="select-list">
          {shown.length === 0 && <li className="select-empty">{emptyText}</li>}
          {shown.map((option, index) => {
            const selected = value.includes(option.value);
            return (
              <li
                key={option.value}
                id={`${id}-option-${index}`}
                role="option"
                aria-selected={selected}
                className={`select-option multi-select-option${index === active ? ' select-option-active' : ''}`}
                // Keeps the focus in the input, so its blur does not close the list first.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => toggle(option)}
              >
                <input type="checkbox" checked={selected} readOnly tabIndex={-1} aria-hidden="true" />
                <span className="select-option-label">{option.label}</span>
                {option.detail && <span className="select-option-detail"> {option.detail}</span>}
              </li>
            );
          })}
        </ul>
      )}
      </div>
      {chosen.length > 0 && (
        <ul className="multi-select-chips" aria-label={`${label} escolhidas`}>
          {chosen.map((option) => (
            <li key={option.value} className="multi-select-chip">
              <span>{option.label}</span>
              {!disabled && (
                <button
                  type="button"
                  className="multi-select-chip-remove"
                  aria-label={`Remover ${option.label}`}
                  onClick={() => toggle(option)}
                >
                  <Icon name="close" size={16} />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
