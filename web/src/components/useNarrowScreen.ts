import { useEffect, useState } from 'react';

/** The narrow-screen breakpoint (spec 01 §9): at or below it, screens show their mobile variant. */
export const NARROW_MAX_WIDTH = 700;

/** Whether the window is 700 px wide or less, following resizes. */
export function useNarrowScreen(): boolean {
  const [narrow, setNarrow] = useState(() => window.innerWidth <= NARROW_MAX_WIDTH);
  useEffect(() => {
    const onResize = () => setNarrow(window.innerWidth <= NARROW_MAX_WIDTH);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return narrow;
}
