import { useEffect, useRef, type RefObject } from 'react';

/** What Tab can reach (before the visibility and radio-group filters). */
const TABBABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  'summary',
  'audio[controls]',
  'video[controls]',
  '[contenteditable]:not([contenteditable="false"])',
  '[tabindex]',
].join(',');

function visible(element: HTMLElement): boolean {
  if (typeof element.checkVisibility === 'function') {
    return element.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions);
  }
  // jsdom has no layout: look for hidden ancestors instead.
  for (let node: HTMLElement | null = element; node; node = node.parentElement) {
    if (node.hidden) return false;
    const style = getComputedStyle(node);
    if (style.display === 'none' || style.visibility === 'hidden') return false;
  }
  return true;
}

/**
 * The elements Tab visits inside `container`, in document order: enabled, visible, without a
 * negative tabindex, outside `inert` subtrees, and one stop per radio group (its checked radio,
 * or its first when none is), as the browser does.
 */
export function tabbables(container: HTMLElement): HTMLElement[] {
  const candidates = Array.from(container.querySelectorAll<HTMLElement>(TABBABLE)).filter(
    (element) => element.tabIndex >= 0 && !element.closest('[inert]') && !element.closest('fieldset:disabled') && visible(element),
  );
  const radioStop = new Map<string, HTMLInputElement>();
  for (const element of candidates) {
    if (!(element instanceof HTMLInputElement) || element.type !== 'radio' || !element.name) continue;
    const current = radioStop.get(element.name);
    if (!current || (element.checked && !current.checked)) radioStop.set(element.name, element);
  }
  return candidates.filter(
    (element) =>
      !(element instanceof HTMLInputElement) || element.type !== 'radio' || !element.name || radioStop.get(element.name) === element,
  );
}

/** The open dialogs, innermost last: only the innermost one handles Tab and Escape. */
const stack: symbol[] = [];

interface DialogFocusOptions {
  /** Focused on open; the dialog itself when absent. */
  initialFocus?: RefObject<HTMLElement | null>;
  onEscape: () => void;
}

/**
 * Keeps keyboard focus inside an open dialog: focus moves in on open, Tab and Shift+Tab cycle
 * through the dialog's controls, Escape calls `onEscape`, and focus returns to the element that
 * had it (the opener) when the dialog closes.
 */
export function useDialogFocus(open: boolean, dialogRef: RefObject<HTMLElement | null>, { initialFocus, onEscape }: DialogFocusOptions) {
  const escape = useRef(onEscape);
  escape.current = onEscape;

  useEffect(() => {
    if (!open) return;
    const id = Symbol('dialog');
    stack.push(id);
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    (initialFocus?.current ?? dialogRef.current)?.focus();

    const onKey = (event: KeyboardEvent) => {
      if (stack[stack.length - 1] !== id || event.defaultPrevented) return;
      const dialog = dialogRef.current;
      if (!dialog) return;
      if (event.key === 'Escape') {
        escape.current();
        return;
      }
      if (event.key !== 'Tab') return;
      // Moved by hand every time: the browser would also stop on scrollable boxes and leave
      // the dialog at either end.
      event.preventDefault();
      const order = tabbables(dialog);
      if (order.length === 0) {
        dialog.focus();
        return;
      }
      const active = document.activeElement as HTMLElement | null;
      let index = active ? order.indexOf(active) : -1;
      if (index < 0 && active && dialog.contains(active)) {
        // On the dialog itself or a non-tabbable element inside: continue from its position.
        const after = order.findIndex((element) => active.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING);
        index = after < 0 ? order.length : after;
        index = event.shiftKey ? index : index - 1;
      }
      const next = event.shiftKey
        ? order[(index <= 0 ? order.length : index) - 1]
        : order[(index + 1) % order.length];
      next.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      stack.splice(stack.indexOf(id), 1);
      // Back to the opener, when it is still on the page (a menu item that closed is not).
      if (opener?.isConnected) opener.focus();
    };
    // The opener and the first focus belong to the opening only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
}
