import type { ScheduledJob } from '../../common/scheduler.js';
import type { RiskService } from './risk.service.js';

const MINUTE_MS = 60_000;

/**
 * The risk monitor: each minute, the equity of every account with a loss limit is judged (and
 * reducing accounts close what is left). Processes racing on one slot change a state once: the
 * change is conditional on the state it leaves.
 */
export function createRiskMonitorJob(risk: RiskService): ScheduledJob {
  return {
    name: 'risk-monitor',
    nextSlotAfter: (at) => new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS + MINUTE_MS),
    async run() {
      await risk.monitor();
    },
  };
}
