// Work per key one at a time, in order; different keys side by side. A failure does not block
// the key's next work (each caller gets its own result or error). The one serial queue of the
// server: an account's lane, a copy relation's passes, a bot's polls, the square's per-account
// projection.

export interface KeyedQueue<K> {
  /** Runs `work` after the key's earlier work has settled; answers its result. */
  run<T>(key: K, work: () => Promise<T>): Promise<T>;
  /** Resolves when every key's queue is empty (work queued meanwhile is waited for too). */
  idle(): Promise<void>;
  /** Keys with work queued or running now. */
  size(): number;
}

export function createKeyedQueue<K>(): KeyedQueue<K> {
  const tails = new Map<K, Promise<unknown>>();
  return {
    run(key, work) {
      const previous = tails.get(key) ?? Promise.resolve();
      const next = previous.then(work, work);
      const tail = next.catch(() => undefined);
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return next;
    },
    async idle() {
      while (tails.size > 0) await Promise.all([...tails.values()]);
    },
    size: () => tails.size,
  };
}
