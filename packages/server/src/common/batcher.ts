// Micro-batching: calls made while a batch is being written join the next one, so many
// concurrent orders (a fan-out to a thousand accounts, the bots of one candle close) share one
// database round trip instead of one each. A lone call still goes at once: the first call of
// an idle batcher flushes on the next tick.

export interface Batcher<In, Out> {
  run(item: In): Promise<Out>;
}

/**
 * `flush` receives up to `maxSize` items and answers one result per item, in order (or throws:
 * every item of that batch fails with the error).
 */
export function createBatcher<In, Out>(
  flush: (items: readonly In[]) => Promise<readonly Out[]>,
  options: { maxSize: number },
): Batcher<In, Out> {
  let queue: { item: In; resolve: (out: Out) => void; reject: (error: unknown) => void }[] = [];
  let isFlushing = false;
  let isScheduled = false;

  async function drain(): Promise<void> {
    isScheduled = false;
    if (isFlushing) return;
    isFlushing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, options.maxSize);
        queue = queue.slice(batch.length);
        try {
          const results = await flush(batch.map((entry) => entry.item));
          batch.forEach((entry, i) => {
            entry.resolve(results[i] as Out);
          });
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      isFlushing = false;
    }
  }

  return {
    run(item) {
      return new Promise<Out>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!isScheduled && !isFlushing) {
          isScheduled = true;
          setImmediate(() => void drain());
        }
      });
    },
  };
}
