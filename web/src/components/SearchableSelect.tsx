import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Icon } from './Icon';

export interface SelectOption<T> {
  value: T;
  label: string;
  /** Second line (e.g. 'Curitiba - PR'); searched too. */
  detail?: string;
}

interface SearchableSelectProps<T> {
  label: string;
  options: SelectOption<T>[];
  value: T | null;
  onChange: (value: T) => void;
  disabled?: boolean;
  /** Shown when nothing matches. */
  emptyText?: string;
  /** Called with what the user types, for lists searched on the server. */
  onSearch?: (text: string) => void;
  className?: string;
}

/** Case-insensitive, accent-insensitive match on the label or the detail. */
export function matchesOption(option: SelectOption<unknown>, text: string): boolean {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
  const needle = fold(text.trim());
  if (!needle) return true;
  return fold(option.label).includes(needle) || fold(option.detail ?? '').includes(needle);
}

/**
 * A dropdown list with a search box (a combobox): typing filters the options; the list has
 * a fixed height and scrolls.
 */
export function SearchableSelect<T>({
  label,
  options,
  value,
  onChange,
  disabled,
  emptyText = 'Nenhum resultado encontrado',
  onSearch,
  className,
}: SearchableSelectProps<T>) {
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);

  const selected = options.find((option) => option.value === value) ?? null;
  const shown = useMemo(
    () => (onSearch ? options : options.filter((option) => matchesOption(option, query))),
    [options, query, onSearch],
  );

  const openList = () => {
    if (disabled || open) return;
    setQuery('');
    onSearch?.('');
    setActive(Math.max(0, shown.findIndex((option) => option.value === value)));
    setOpen(true);
  };

  const choose = (option: SelectOption<T>) => {
    onChange(option.value);
    setOpen(false);
    setQuery('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!open) openList();
      else setActive((index) => Math.min(shown.length - 1, index + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => Math.max(0, index - 1));
    } else if (event.key === 'Enter' && open) {
      event.preventDefault();
      if (shown[active]) choose(shown[active]);
    } else if (event.key === 'Escape' && open) {
      event.stopPropagation();
      setOpen(false);
    }
  };

  const display = open ? query : selected ? selected.label : '';

  return (
    <div className={`field select${open ? ' select-open' : ''}${className ? ` ${className}` : ''}`}>
      <div className="field-control">
        <input
          ref={inputRef}
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && shown[active] ? `${id}-option-${active}` : undefined}
          autoComplete="off"
          placeholder=" "
          disabled={disabled}
          value={display}
          onFocus={openList}
          onClick={openList}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
            onSearch?.(event.target.value);
            if (!open) setOpen(true);
          }}
        />
        <label htmlFor={id}>{label}</label>
        <span className="field-adornment select-arrow" aria-hidden="true">
          <Icon name="expandMore" />
        </span>
      </div>
      {open && (
        <ul id={listId} role="listbox" aria-label={label} className="select-list">
          {shown.length === 0 && <li className="select-empty">{emptyText}</li>}
          {shown.map((option, index) => (
            <li
              key={String(option.value)}
              id={`${id}-option-${index}`}
              role="option"
              aria-selected={option.value === value}
              className={`select-option${index === active ? ' select-option-active' : ''}`}
              // Keeps the focus in the input, so its blur does not close the list first.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(option)}
            >
              <span className="select-option-label">{option.label}</span>
              {option.detail && <span className="select-option-detail"> {option.detail}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
