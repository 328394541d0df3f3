import { useId, type ReactNode } from 'react';

interface TooltipProps {
  /** The text; nothing is shown when empty (e.g. the control is enabled). */
  text?: string | null;
  children: ReactNode;
  className?: string;
}

/**
 * Explains a control, typically why it is disabled. The wrapper, not the control, takes
 * hover and focus, because a disabled button gets neither.
 */
export function Tooltip({ text, children, className }: TooltipProps) {
  const id = useId();
  if (!text) return <>{children}</>;
  return (
    <span className={`tooltip-anchor${className ? ` ${className}` : ''}`} tabIndex={0} aria-describedby={id}>
      {children}
      <span id={id} role="tooltip" className="tooltip">
        {text}
      </span>
    </span>
  );
}
