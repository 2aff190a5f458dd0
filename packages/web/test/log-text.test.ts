import {
  OPERATION_LOG_EVENTS,
  type OperationLogEntry,
  type OperationLogEvent,
} from '@quantsquare/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeLogEntry } from '../src/features/bots/log-text';
import i18n, { changeLanguage, loadLanguage } from '../src/i18n';
import '../src/i18n/bots-texts';

const entry = (
  event: OperationLogEvent | null,
  details: Record<string, unknown>,
  message = 'server text',
): OperationLogEntry => ({
  id: 1,
  type: 'bot_action',
  bot_id: 7,
  bot_symbol: 'BTC/USDT:USDT',
  event,
  message,
  details,
  created_at: '2026-11-21T00:00:00.000Z',
});

/** Details as the server writes them for each event. */
const SAMPLES: Record<OperationLogEvent, Record<string, unknown>> = {
  bot_created: { timeframe: '1h', trade_amount: 100 },
  bot_started: { from_status: 'stopped' },
  bot_stopped: {},
  bot_deleted: { bot_id: 7 },
  bot_failed: { kind: 'order', error_kind: 'insufficient_funds' },
  api_created: { name: 'Main', exchange: 'binance' },
  api_updated: { name: 'Main', changed: ['name'] },
  api_deleted: { name: 'Main' },
  signal_open: { signal: 'buy', side: 'long', asset: 'BTC', amount: 0.5, price: 100 },
  signal_skipped: { signal: 'sell', limit: 'notional', value: 4.2, minimum: 5 },
  position_closing: { reason: 'stop_loss', side: 'long', asset: 'BTC', amount: 0.5 },
  trade_opened: { side: 'short', asset: 'BTC', amount: 0.5, price: 101.5 },
  trade_closed: { side: 'long', asset: 'BTC', amount: 0.5, price: 99, reason: 'take_profit' },
  order_never_sent: { client_order_id: 'qs7-abc' },
  order_reconciled: { client_order_id: 'qs7-abc', status: 'closed', filled: 0.5 },
  position_mismatch: { bot_amount: 0.5, exchange_amount: 0 },
  resume_retry: { attempt: 1, delay_seconds: 10, error_kind: 'unavailable' },
  stop_moved: { side: 'long', from: 1960, to: 1985.5, trailing_percent: 0.3 },
  webhook_failed: { webhook_config_id: 3, signal_id: 12, error_kind: 'insufficient_funds' },
  copy_failed: { relation_id: 4, reason: 'insufficient_margin', error_kind: 'insufficient_funds' },
  copy_stopped: { relation_id: 4, reason: 'max_loss', limit: 50, total_profit_loss: '-51.2' },
  copy_created: { relation_id: 4, leader_account_id: 9, copy_amount: '200', copy_mode: 'reverse' },
  copy_paused: { relation_id: 4, leader_account_id: 9 },
  copy_resumed: { relation_id: 4, leader_account_id: 9 },
  copy_updated: { relation_id: 4, leader_account_id: 9, copy_amount: '150.5', max_loss: null },
  copy_deleted: { relation_id: 4, leader_account_id: 9 },
  risk_updated: { account_id: 3, max_order_notional: 500 },
  risk_state_changed: { account_id: 3, state: 'halted', previous_state: 'active', reason: 'user' },
};

describe('operation-log entries in the reader’s language', () => {
  beforeAll(async () => {
    await loadLanguage('en');
    await changeLanguage('zh-CN');
  });
  const zh = () => i18n.getFixedT('zh-CN');
  const en = () => i18n.getFixedT('en');

  it('says every event in Chinese and English, with no placeholder or key left', () => {
    for (const event of OPERATION_LOG_EVENTS) {
      for (const t of [zh(), en()]) {
        const said = describeLogEntry(t, entry(event, SAMPLES[event]), 'en');
        expect(said, event).not.toBe('server text');
        expect(said, event).not.toMatch(/{{|}}|bots\.logs/);
      }
    }
  });

  it('says where a trailing stop moved, in both languages', () => {
    expect(describeLogEntry(en(), entry('stop_moved', SAMPLES.stop_moved), 'en')).toBe(
      'Trailing stop (0.30%): long stop 1,960.00 → 1,985.50',
    );
    expect(describeLogEntry(zh(), entry('stop_moved', SAMPLES.stop_moved), 'zh-CN')).toBe(
      '移动止损（0.30%）：多仓止损价 1,960.00 → 1,985.50',
    );
  });

  it('says copy trading’s failures and stops in the reader’s language', () => {
    expect(describeLogEntry(zh(), entry('copy_failed', SAMPLES.copy_failed), 'zh-CN')).toBe(
      '跟单 BTC/USDT:USDT 失败：保证金不足',
    );
    expect(describeLogEntry(en(), entry('copy_failed', SAMPLES.copy_failed), 'en')).toBe(
      'Copy of BTC/USDT:USDT failed: Insufficient margin',
    );
    expect(describeLogEntry(zh(), entry('copy_stopped', SAMPLES.copy_stopped), 'zh-CN')).toBe(
      '跟单已停止：亏损达到上限 50.00 USDT',
    );
    const drawdown = { relation_id: 4, reason: 'leader_drawdown', limit: 20 };
    expect(describeLogEntry(en(), entry('copy_stopped', drawdown), 'en')).toBe(
      "Copy trading stopped: the leader's drawdown passed 20%",
    );
    // A reverse copy stops on its leader's rise, and says so.
    const rise = { ...drawdown, copy_mode: 'reverse' };
    expect(describeLogEntry(en(), entry('copy_stopped', rise), 'en')).toBe(
      "Copy trading stopped: the leader's rise from its low passed 20% (reverse copy)",
    );
    expect(describeLogEntry(zh(), entry('copy_stopped', rise), 'zh-CN')).toBe(
      '跟单已停止：交易员自低点上涨超过 20%（反向跟单）',
    );
    // The follower's own actions on a copy.
    expect(describeLogEntry(zh(), entry('copy_created', SAMPLES.copy_created), 'zh-CN')).toBe(
      '开始跟单：200.00 USDT，反向跟单',
    );
    expect(describeLogEntry(en(), entry('copy_updated', SAMPLES.copy_updated), 'en')).toBe(
      'Changed copy settings: 150.50 USDT, max loss no limit',
    );
    expect(
      describeLogEntry(
        zh(),
        entry('copy_updated', { ...SAMPLES.copy_updated, max_loss: '50' }),
        'zh-CN',
      ),
    ).toBe('修改跟单设置：150.50 USDT，最大亏损 50.00 USDT');
    expect(describeLogEntry(zh(), entry('copy_paused', SAMPLES.copy_paused), 'zh-CN')).toBe(
      '跟单已暂停',
    );
    expect(
      describeLogEntry(zh(), entry('copy_stopped', { relation_id: 4, reason: 'user' }), 'zh-CN'),
    ).toBe('跟单已停止：由您停止');
    expect(
      describeLogEntry(
        en(),
        entry('copy_stopped', { relation_id: 4, reason: 'leader_gone' }),
        'en',
      ),
    ).toBe("Copy trading stopped: the strategy's exchange account was deleted");
    // The leader withdrew the strategy: private, or copying turned off (defect 12).
    const withdrawn = (change: string) =>
      entry('copy_stopped', { relation_id: 4, reason: 'leader_gone', leader_change: change });
    expect(describeLogEntry(en(), withdrawn('private'), 'en')).toBe(
      'Copy trading stopped: the strategy is no longer public',
    );
    expect(describeLogEntry(zh(), withdrawn('copy_off'), 'zh-CN')).toBe(
      '跟单已停止：策略已不再接受跟单',
    );
    // Paused and resumed with the follower's account (defect 13).
    const account = (event: 'copy_paused' | 'copy_resumed', reason: string) =>
      entry(event, { relation_id: 4, leader_account_id: 9, reason });
    expect(describeLogEntry(zh(), account('copy_paused', 'account_disabled'), 'zh-CN')).toBe(
      '跟单已暂停：跟单账户已停用',
    );
    expect(describeLogEntry(en(), account('copy_resumed', 'account_enabled'), 'en')).toBe(
      'Copy trading resumed: its trading account is enabled again',
    );
    expect(
      describeLogEntry(
        zh(),
        entry('copy_stopped', { relation_id: 4, reason: 'account_deleted' }),
        'zh-CN',
      ),
    ).toBe('跟单已停止：跟单账户已被删除');
    // A reason the web does not know: the server's own message.
    expect(describeLogEntry(en(), entry('copy_failed', { reason: 'new_kind' }), 'en')).toBe(
      'server text',
    );
  });

  it('translates the facts of trades and decisions', () => {
    expect(describeLogEntry(zh(), entry('trade_closed', SAMPLES.trade_closed), 'zh-CN')).toBe(
      '已平多 0.50000000 BTC，成交价 99.00（止盈）',
    );
    expect(describeLogEntry(en(), entry('trade_closed', SAMPLES.trade_closed), 'en')).toBe(
      'Closed long 0.50000000 BTC at 99.00 (take-profit)',
    );
    expect(describeLogEntry(zh(), entry('signal_open', SAMPLES.signal_open), 'zh-CN')).toBe(
      '买入信号 → 开多 0.50000000 BTC',
    );
    expect(describeLogEntry(zh(), entry('signal_skipped', SAMPLES.signal_skipped), 'zh-CN')).toBe(
      '卖出信号 → 跳过：名义价值 4.20 USDT 低于最小值 5.00 USDT',
    );
    expect(describeLogEntry(zh(), entry('bot_created', SAMPLES.bot_created), 'zh-CN')).toBe(
      '创建机器人 BTC/USDT:USDT（1h，100.00 USDT）',
    );
  });

  it('shows prices with 2 decimals and amounts by their size (document 1 §9)', () => {
    const fill = (amount: number, price: number) =>
      entry('trade_opened', { side: 'long', asset: 'ETH', amount, price });
    expect(describeLogEntry(zh(), fill(0.0304, 3285.422784), 'zh-CN')).toBe(
      '已开多 0.03040000 ETH，成交价 3,285.42',
    );
    expect(describeLogEntry(en(), fill(1.5, 0.123456), 'en')).toBe(
      'Opened long 1.5000 ETH at 0.12',
    );
    expect(describeLogEntry(en(), fill(1234.5678, 2), 'en')).toBe(
      'Opened long 1,234.57 ETH at 2.00',
    );
    const skipped = entry('signal_skipped', {
      signal: 'buy',
      limit: 'amount',
      value: 0.0004,
      minimum: 0.001,
    });
    expect(describeLogEntry(en(), skipped, 'en')).toContain('0.00040000');
  });

  it('names an exchange failure’s kind and keeps the exchange’s own words', () => {
    const failed = entry('bot_failed', SAMPLES.bot_failed, 'open_long order failed: balance 5');
    expect(describeLogEntry(zh(), failed, 'zh-CN')).toBe(
      '运行出错：交易所账户余额不足（open_long order failed: balance 5）',
    );
    const engine = entry('bot_failed', { kind: 'engine' }, 'No candles');
    expect(describeLogEntry(en(), engine, 'en')).toBe('Bot failed: No candles');
  });

  it('shows the server message for an entry without an event or with missing facts', () => {
    expect(describeLogEntry(zh(), entry(null, {}), 'zh-CN')).toBe('server text');
    expect(describeLogEntry(zh(), entry('trade_closed', { side: 'long' }), 'zh-CN')).toBe(
      'server text',
    );
    expect(describeLogEntry(zh(), entry('api_created', { name: 42 }), 'zh-CN')).toBe('server text');
  });
});
