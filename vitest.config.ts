import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that mostly wait (killed and restarted processes, venues that answer late, leases running
 * out), slowest first. They start before everything else so that their waits overlap the quick
 * files instead of forming the run's tail. A file missing here only runs later.
 */
const SLOW_FIRST = [
  'system/scale-out',
  'execution/owners-sigkill-binance',
  'execution/owners-sigkill-okx',
  'bot-engine/bot-venue-protection-binance',
  'execution/venue-lifecycle-okx',
  'execution/venue-lifecycle-binance',
  'bot-engine/bot-venue-protection-okx',
  'bot-engine/bot-leases',
  'webhooks/webhook-venue',
  'copy-trading/copy-leases-frozen',
  'webhooks/webhook-sigkill',
  'bot-engine/bot-sigkill',
  'copy-trading/copy-sigkill',
  'copy-trading/copy-leases',
  'copy-trading/copy-live-okx',
  'admin/wallet-admin',
  'system/data-dir',
  'bots/live-vs-backtest',
];

function slowRank(spec: TestSpecification): number {
  const rank = SLOW_FIRST.findIndex((name) => spec.moduleId.endsWith(`/test/${name}.test.ts`));
  return rank < 0 ? SLOW_FIRST.length : rank;
}

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // A stable sort: the rest keep vitest's own order.
    return sorted
      .map((spec, index) => ({ spec, index, rank: slowRank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts'],
    // Three files at a time on two cores (the default there is one): the slowest server files
    // spend their time waiting on killed and restarted processes or leases running out (the four
    // slowest left two cores 57 % busy with two workers, 75 % with four), which a third file's
    // work fills. Each file runs on a database of its own.
    maxWorkers: 3,
    sequence: { sequencer: SlowFirstSequencer },
  },
});
