import { describe, expect, it } from 'vitest';
import { createKeyedQueue } from './keyed-queue.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('the keyed queue', () => {
  it('runs one key in order, keys side by side, and goes on after a failure', async () => {
    const queue = createKeyedQueue<string>();
    const log: string[] = [];
    const step =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const a1 = queue.run('a', step('a1', true));
    const a2 = queue.run('a', step('a2'));
    const b1 = queue.run('b', step('b1'));
    expect(queue.size()).toBe(2);
    await expect(a1).rejects.toThrow('a1');
    expect(await a2).toBe('a2');
    expect(await b1).toBe('b1');
    // a2 started only after a1 ended; b1 ran beside a1.
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
    await queue.idle();
    expect(queue.size()).toBe(0);
  });

  it('waits in idle for work queued while it waits', async () => {
    const queue = createKeyedQueue<number>();
    let done = false;
    void queue.run(1, async () => {
      await tick();
      void queue.run(2, async () => {
        await tick();
        done = true;
      });
    });
    await queue.idle();
    expect(done).toBe(true);
  });
});
