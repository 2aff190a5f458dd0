import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import type { FeedbackApi } from './FeedbackHost';

// antd's message and confirm dialog (its App, about 17 KB gzip) fetched with the first use, not
// with the screen: the dashboard's bot area shows none until the user acts on a bot.
const FeedbackHost = lazy(() => import('./FeedbackHost'));

/**
 * `run(fn)` calls `fn` with antd's message and modal API, at once when it is loaded, else as soon
 * as it is. `host` is the element that holds them: render it where the screen renders its parts.
 */
export function useDeferredFeedback() {
  const api = useRef<FeedbackApi | null>(null);
  const waiting = useRef<((api: FeedbackApi) => void)[]>([]);
  const [isWanted, setWanted] = useState(false);
  const onReady = useCallback((ready: FeedbackApi) => {
    api.current = ready;
    for (const fn of waiting.current.splice(0)) fn(ready);
  }, []);
  const run = useCallback((fn: (api: FeedbackApi) => void) => {
    if (api.current) fn(api.current);
    else {
      waiting.current.push(fn);
      setWanted(true);
    }
  }, []);
  const host = isWanted ? (
    <Suspense fallback={null}>
      <FeedbackHost onReady={onReady} />
    </Suspense>
  ) : null;
  return { run, host };
}
