import { SUCCESS_MESSAGE_MS } from '@quantsquare/contracts';
import { useCallback, useEffect, useState } from 'react';

export interface Flash {
  type: 'success' | 'error' | 'info';
  text: string;
}

/** The one message line of a form; success messages disappear after 3 s (spec §9). */
export function useFlash() {
  const [flash, setFlash] = useState<Flash | null>(null);
  useEffect(() => {
    if (flash?.type !== 'success') return;
    const timer = setTimeout(() => setFlash(null), SUCCESS_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [flash]);
  const clear = useCallback(() => setFlash(null), []);
  return { flash, setFlash, clear };
}
