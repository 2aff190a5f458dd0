import { COPIED_NOTICE_MS } from '@quantsquare/contracts';
import { useEffect, useRef, useState } from 'react';

/**
 * Copies text to the clipboard. `copied` stays true for the spec's 2 s notice after a success;
 * `copy` answers whether it worked, so the caller can show its failure text.
 */
export function useCopy() {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async (text: string): Promise<boolean> => {
    try {
      if (!navigator.clipboard) return false;
      await navigator.clipboard.writeText(text);
    } catch {
      return false;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_NOTICE_MS);
    return true;
  };

  return { copied, copy };
}
