import { useLayoutEffect, useState, type RefObject } from 'react';

export interface Box {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface Placement {
  /** Opens above the anchor instead of below. */
  up: boolean;
  /** Grows rightward from the anchor's left edge instead of leftward from its right edge. */
  start: boolean;
}

export const DEFAULT_PLACEMENT: Placement = { up: false, start: false };

/**
 * Where a popover of `size` goes next to `anchor` so that it stays inside `bounds`: below and
 * right-aligned (growing leftward) by default; above when it does not fit below and there is
 * more room above; growing rightward when it would leave `bounds` on the left.
 */
export function placePopover(anchor: Box, size: { width: number; height: number }, bounds: Box): Placement {
  const below = bounds.bottom - anchor.bottom;
  const above = anchor.top - bounds.top;
  const up = size.height > below && above > below;
  const leftward = anchor.right - bounds.left;
  const rightward = bounds.right - anchor.left;
  const start = size.width > leftward && rightward > leftward;
  return { up, start };
}

/**
 * The part of the viewport where an element can be seen: the window, narrowed by every
 * ancestor that clips its overflow (a horizontally scrolling timeline, for one).
 */
export function visibleBounds(element: HTMLElement): Box {
  const bounds: Box = { top: 0, left: 0, right: window.innerWidth, bottom: window.innerHeight };
  for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const rect = node.getBoundingClientRect();
    bounds.top = Math.max(bounds.top, rect.top);
    bounds.left = Math.max(bounds.left, rect.left);
    bounds.right = Math.min(bounds.right, rect.right);
    bounds.bottom = Math.min(bounds.bottom, rect.bottom);
  }
  return bounds;
}

/**
 * Keeps an open popover (a menu) on screen: measures it before it is painted and says whether
 * it should open upward or rightward (the CSS applies it).
 */
export function usePopoverPlacement(
  open: boolean,
  anchorRef: RefObject<HTMLElement | null>,
  popoverRef: RefObject<HTMLElement | null>,
): Placement {
  const [placement, setPlacement] = useState(DEFAULT_PLACEMENT);
  useLayoutEffect(() => {
    const anchor = anchorRef.current;
    const popover = popoverRef.current;
    if (!open || !anchor || !popover) return;
    const { width, height } = popover.getBoundingClientRect();
    const next = placePopover(anchor.getBoundingClientRect(), { width, height }, visibleBounds(anchor));
    setPlacement((current) => (current.up === next.up && current.start === next.start ? current : next));
  }, [open, anchorRef, popoverRef]);
  return placement;
}
