import { useId, type ReactNode } from 'react';

interface TooltipProps {
  /** The text; nothing is shown when empty (e.g. the control is enabled). */
  text?: string | null;
  children: ReactNode;
  className?: string;
}

/**
 * Explains a control, typically why it is disabled. The wrapper, not the control, takes
 * hover and focus, because a disabled button gets neither. The wrapper stays when there
 * is nothing to say, so the control is never re-created (and keeps its focus).
 */
export function Tooltip({ text, children, className }: TooltipProps) {
  const id = useId();
  return (
    <span
      className={`tooltip-anchor${className ? ` ${className}` : ''}`}
      tabIndex={text ? 0 : undefined}
      aria-describedby={text ? id : undefined}
    >
      {children}
      {text && (
        <span id={id} role="tooltip" className="tooltip">
          {text}
        </span>
      )}
    </span>
  );
}
