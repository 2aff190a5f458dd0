import { BALANCE_POLL_INTERVAL_MS, BALANCE_POLL_MAX_ATTEMPTS } from '@quantsquare/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { invalidateCoins, walletApi } from '../../api/wallet';
import { compareDecimal } from '../../shared/format/decimal';

export type BalancePollState =
  | { phase: 'idle' }
  | { phase: 'polling'; attempt: number }
  | { phase: 'credited'; balance: string }
  | { phase: 'stopped' };

/**
 * After a deposit is submitted: reads the balance every 5 s and stops when it rises above the
 * balance at submit time, or after 24 reads (§4, §9). A rise refreshes the shell's balance.
 */
export function useBalancePoll() {
  const queryClient = useQueryClient();
  // `balance` null: the first read becomes the baseline (the balance was not known at submit).
  const [start, setStart] = useState<{ balance: string | null } | null>(null);
  const [state, setState] = useState<BalancePollState>({ phase: 'idle' });

  useEffect(() => {
    if (!start) return;
    let attempt = 0;
    let baseline = start.balance;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const tick = async () => {
      attempt += 1;
      setState({ phase: 'polling', attempt });
      try {
        const answer = await walletApi.balance({ page: 1, page_size: 1 }, controller.signal);
        if (baseline === null) baseline = answer.balance;
        else if (compareDecimal(answer.balance, baseline) === 1) {
          setState({ phase: 'credited', balance: answer.balance });
          await invalidateCoins(queryClient);
          return;
        }
      } catch {
        // A failed read counts as a try; the next one may succeed.
      }
      if (controller.signal.aborted) return;
      if (attempt >= BALANCE_POLL_MAX_ATTEMPTS) setState({ phase: 'stopped' });
      else timer = setTimeout(tick, BALANCE_POLL_INTERVAL_MS);
    };
    timer = setTimeout(tick, BALANCE_POLL_INTERVAL_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [start, queryClient]);

  return {
    state,
    /** Starts (or restarts) polling from the balance the user had when submitting. */
    begin: (balanceAtSubmit: string | null) => {
      setStart({ balance: balanceAtSubmit });
      setState({ phase: 'polling', attempt: 0 });
    },
  };
}
