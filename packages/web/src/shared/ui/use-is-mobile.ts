import { MOBILE_BREAKPOINT_PX } from '@quantsquare/contracts';
import { useSyncExternalStore } from 'react';

const query = `(max-width: ${MOBILE_BREAKPOINT_PX}px)`;

function subscribe(listener: () => void): () => void {
  const list = window.matchMedia(query);
  list.addEventListener('change', listener);
  return () => list.removeEventListener('change', listener);
}

/** Mobile layout at the spec's breakpoint (768 px wide or less). */
export function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
