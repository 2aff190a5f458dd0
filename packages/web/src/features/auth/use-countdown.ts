import { useCallback, useEffect, useState } from 'react';

/** Seconds left of a send-code cooldown; `start(n)` begins a new one. */
export function useCountdown() {
  const [secondsLeft, setSecondsLeft] = useState(0);
  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);
  const start = useCallback(
    (seconds: number) => setSecondsLeft(Math.max(0, Math.ceil(seconds))),
    [],
  );
  return { secondsLeft, start, isRunning: secondsLeft > 0 };
}
