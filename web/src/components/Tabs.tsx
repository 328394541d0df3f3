import type { ReactNode } from 'react';

interface TabsProps<K extends string> {
  tabs: readonly { key: K; label: string; hidden?: boolean }[];
  current: K;
  onChange: (key: K) => void;
  label: string;
  children: ReactNode;
}

/** Tabs of a detail page (Informações, Horário de trabalho, ...); only the current panel renders. */
export function Tabs<K extends string>({ tabs, current, onChange, label, children }: TabsProps<K>) {
  return (
    <>
      <div className="tabs" role="tablist" aria-label={label}>
        {tabs
          .filter((tab) => !tab.hidden)
          .map((tab) => (
            <button
              key={tab.key}
              type="button"
              role="tab"
              className="tab"
              aria-selected={tab.key === current}
              onClick={() => onChange(tab.key)}
            >
              {tab.label}
            </button>
          ))}
      </div>
      <div role="tabpanel" aria-label={tabs.find((tab) => tab.key === current)?.label}>
        {children}
      </div>
    </>
  );
}
