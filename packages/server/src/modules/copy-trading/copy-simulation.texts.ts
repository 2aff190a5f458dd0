import type { CopySimulationVenue } from '@quantsquare/contracts';
import type { MessageLanguage } from '../../common/message-language.js';

// The copy simulation's assumptions, written in the reader's language (Accept-Language), as the
// backtest lists its own: what the replay takes for granted and what it cannot know.

export interface AssumptionFacts {
  readonly venue: CopySimulationVenue;
  readonly feeRate: number;
  readonly slippageBps: number;
  readonly days: number;
}

const percent = (rate: number) => `${Number((rate * 100).toFixed(4))}%`;

const VENUE_NAMES: Record<MessageLanguage, Record<CopySimulationVenue, string>> = {
  'zh-CN': { binance: '币安', okx: 'OKX', paper: '模拟盘' },
  en: { binance: 'Binance', okx: 'OKX', paper: 'paper trading' },
};

export function copySimulationAssumptions(
  language: MessageLanguage,
  facts: AssumptionFacts,
): string[] {
  const venue = VENUE_NAMES[language][facts.venue];
  if (language === 'zh-CN') {
    return [
      `回放交易员最近 ${facts.days} 天在平台上记录的每一笔成交，按实盘跟单引擎的同一规则计算：目标仓位 = 交易员仓位 × 跟单金额 / 期初交易员权益，反向跟单取反。`,
      `跟单方交易所为${venue}：按其合约面值、数量步长和最小下单量取整，低于最小值的变动不下单（计为跳过）。`,
      `跟单成交价为交易员成交价向不利方向偏移 ${facts.slippageBps} 个基点；开仓为限价 IOC，超出滑点上限则不成交。`,
      `手续费按每边 ${percent(facts.feeRate)} 的吃单费率计算。`,
      '期初已持有的交易员仓位不跟随（与跟单开始时一致）；在平台外的成交、资金费率和强平不计入。',
      '权益按交易员最近成交价估值；历史结果不代表未来收益。',
    ];
  }
  return [
    `Replays every fill the leader recorded on the platform in the last ${facts.days} days with the live copy engine's rule: target = leader position × copy amount / the leader's equity at the start, negated for reverse.`,
    `The follower trades on ${venue}: sizes are rounded to its contract size and step, and a change below its minimum order is not sent (counted as skipped).`,
    `Follower fills are ${facts.slippageBps} bps worse than the leader's price; entries are IOC orders that fill nothing beyond the slippage cap.`,
    `Fees: ${percent(facts.feeRate)} taker fee per side.`,
    'Positions the leader already held at the start are not joined (as when a copy starts); trades outside the platform, funding and liquidation are not counted.',
    "Equity is valued at the leader's latest fill prices; past results do not promise future returns.",
  ];
}
