import { useId, useRef, type ReactNode } from 'react';
import { Icon } from './Icon';
import { useDialogFocus } from './useDialogFocus';

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'small' | 'large';
  className?: string;
}

/** A titled dialog closed by its X button or Escape (never by a stray click outside). */
export function Modal({ open, title, onClose, children, footer, size = 'large', className }: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  // Keyboard users start inside the dialog, stay inside it and go back to the opener.
  useDialogFocus(open, dialogRef, { onEscape: onClose });

  if (!open) return null;
  return (
    <div className="dialog-backdrop">
      <div
        className={`modal modal-${size}${className ? ` ${className}` : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        ref={dialogRef}
        tabIndex={-1}
      >
        <header className="modal-header">
          <h2 id={titleId} className="modal-title">
            {title}
          </h2>
          <button type="button" className="icon-button" aria-label="Fechar" onClick={onClose}>
            <Icon name="close" />
          </button>
        </header>
        <div className="modal-body">{children}</div>
        {footer && <footer className="modal-footer">{footer}</footer>}
      </div>
    </div>
  );
}
