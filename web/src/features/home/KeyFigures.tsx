import type { ReactNode } from 'react';

export interface Figure {
  label: string;
  value: ReactNode;
  /** A second line: the cancellation rate. */
  detail?: string;
}

/** A row of key figure cards, as a description list (term: label; description: value). */
export function KeyFigures({ figures, label, className }: { figures: Figure[]; label: string; className?: string }) {
  return (
    <dl className={`home-figures${className ? ` ${className}` : ''}`} aria-label={label}>
      {figures.map((figure) => (
        <div key={figure.label} className="home-figure">
          <dt>{figure.label}</dt>
          <dd>
            <span className="home-figure-value">{figure.value}</span>
            {figure.detail && <span className="home-figure-detail">{figure.detail}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
