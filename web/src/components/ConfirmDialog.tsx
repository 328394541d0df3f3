import { useId, useRef, type ReactNode } from 'react';
import { useDialogFocus } from './useDialogFocus';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** A second way to go on, between the confirmation and 'Cancelar' (e.g. 'Manter R$ 45,00' / 'Usar R$ 55,00'). */
  alternative?: { label: string; onChoose: () => void };
}

/** Modal confirmation with a title, a message and two buttons (three with an alternative). */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancelar',
  onConfirm,
  onCancel,
  alternative,
}: ConfirmDialogProps) {
  const titleId = useId();
  const messageId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);

  const dialogRef = useRef<HTMLDivElement>(null);
  // Focus starts on the harmless choice, stays inside and goes back to the opener.
  useDialogFocus(open, dialogRef, { initialFocus: cancelRef, onEscape: onCancel });

  if (!open) return null;
  return (
    <div className="dialog-backdrop" onClick={onCancel}>
      <div
        className="dialog"
        ref={dialogRef}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={messageId}
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <div id={messageId} className="dialog-message">
          {children}
        </div>
        {/* Three buttons may not fit the dialog's width on a phone: they wrap. */}
        <div className="dialog-actions" style={alternative ? { flexWrap: 'wrap' } : undefined}>
          <button type="button" className="button button-primary" onClick={onConfirm}>
            {confirmLabel}
          </button>
          {alternative && (
            <button type="button" className="button button-secondary" onClick={alternative.onChoose}>
              {alternative.label}
            </button>
          )}
          <button ref={cancelRef} type="button" className="button button-secondary" onClick={onCancel}>
            {cancelLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
