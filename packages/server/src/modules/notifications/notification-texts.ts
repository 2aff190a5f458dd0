import type {
  NotificationKind,
  NotificationLanguage,
  NotificationParams,
} from '@quantsquare/contracts';

// The words of e-mails and Telegram messages, from a notification's kind and parameters, in the
// reader's language (the web has its own copy of these texts in its locale files).

type Texts = Record<NotificationKind, (p: NotificationParams) => string>;
const s = (value: unknown) => (value === null || value === undefined ? '' : String(value));
/** A price with the platform's 2 decimals (document 1 §9), not every digit of the feed. */
const px = (value: unknown) => {
  const n = Number(value);
  return value === null || value === undefined || !Number.isFinite(n) ? s(value) : n.toFixed(2);
};

const ZH_SIDE: Record<string, string> = { buy: '买入', sell: '卖出' };
const ZH_STATE: Record<string, string> = { active: '正常', reducing: '只减仓', halted: '已暂停' };
const ZH_REASON: Record<string, string> = {
  user: '手动操作',
  daily_loss: '触发日亏损上限',
  trailing_drawdown: '触发回撤上限',
};
const ZH_BOT: Record<string, string> = { stopped: '已停止', error: '出错' };
const ZH_COPY: Record<string, string> = { started: '已开始', stopped: '已停止', paused: '已暂停' };
const ZH_COPY_REASON: Record<string, string> = {
  user: '（手动操作）',
  max_loss: '（亏损达到上限）',
  leader_drawdown: '（带单者回撤超过上限）',
  leader_gone: '（策略已不再接受跟单）',
  risk_halted: '（账户已被风控暂停）',
  risk_limit: '（触发账户风控限额）',
  account_disabled: '（交易账户已停用）',
};
const ZH_WALLET_KIND: Record<string, string> = { deposit: '充值', withdrawal: '提现' };
const ZH_WALLET_STATUS: Record<string, string> = {
  pending: '待处理',
  processing: '处理中',
  approved: '已通过',
  completed: '已完成',
  rejected: '已拒绝',
  failed: '失败',
};

const zh: Texts = {
  order_filled: (p) =>
    `订单成交：${s(p.symbol)} ${ZH_SIDE[s(p.side)] ?? s(p.side)} ${s(p.amount)} @ ${px(p.price)}`,
  protective_triggered: (p) =>
    `${p.trigger === 'take_profit' ? '止盈' : '止损'}已触发：${s(p.symbol)} ${s(p.amount)} @ ${px(p.price)}`,
  bot_status: (p) =>
    `机器人 #${s(p.bot_id)} ${s(p.symbol)} ${ZH_BOT[s(p.status)] ?? s(p.status)}${p.error ? `：${s(p.error)}` : ''}`,
  copy_status: (p) =>
    `跟单${ZH_COPY[s(p.status)] ?? s(p.status)}${p.reason ? (ZH_COPY_REASON[s(p.reason)] ?? `（${s(p.reason)}）`) : ''}`,
  webhook_signal: (p) =>
    `Webhook「${s(p.config_name)}」信号 #${s(p.signal_id)} ${p.status === 'refused' ? '被拒绝' : '执行失败'}${p.reason ? `：${s(p.reason)}` : ''}`,
  risk_state: (p) =>
    `账户 #${s(p.account_id)} 风控状态：${ZH_STATE[s(p.state)] ?? s(p.state)}${p.reason ? `（${ZH_REASON[s(p.reason)] ?? s(p.reason)}）` : ''}`,
  wallet_status: (p) =>
    `${ZH_WALLET_KIND[s(p.kind)] ?? s(p.kind)} ${s(p.amount)} ${ZH_WALLET_STATUS[s(p.status)] ?? s(p.status)}`,
  announcement: (p) => `新公告：${s(p.title)}`,
};

const EN_STATE: Record<string, string> = {
  active: 'active',
  reducing: 'reduce-only',
  halted: 'halted',
};
const EN_REASON: Record<string, string> = {
  user: 'by you',
  daily_loss: 'daily loss limit reached',
  trailing_drawdown: 'drawdown limit reached',
};

const EN_COPY_REASON: Record<string, string> = {
  user: ' (by you)',
  max_loss: ' (the loss limit was reached)',
  leader_drawdown: " (the leader's drawdown limit was reached)",
  leader_gone: ' (the strategy no longer takes copies)',
  risk_halted: ' (the account is halted by its risk control)',
  risk_limit: " (the account's risk limit was reached)",
  account_disabled: ' (the trading account is disabled)',
};

const en: Texts = {
  order_filled: (p) => `Order filled: ${s(p.symbol)} ${s(p.side)} ${s(p.amount)} @ ${px(p.price)}`,
  protective_triggered: (p) =>
    `${p.trigger === 'take_profit' ? 'Take-profit' : 'Stop-loss'} triggered: ${s(p.symbol)} ${s(p.amount)} @ ${px(p.price)}`,
  bot_status: (p) =>
    `Bot #${s(p.bot_id)} ${s(p.symbol)} ${p.status === 'error' ? 'is in error' : 'stopped'}${p.error ? `: ${s(p.error)}` : ''}`,
  copy_status: (p) =>
    `Copy trading ${s(p.status)}${p.reason ? (EN_COPY_REASON[s(p.reason)] ?? ` (${s(p.reason)})`) : ''}`,
  webhook_signal: (p) =>
    `Webhook "${s(p.config_name)}" signal #${s(p.signal_id)} ${p.status === 'refused' ? 'refused' : 'failed'}${p.reason ? `: ${s(p.reason)}` : ''}`,
  risk_state: (p) =>
    `Account #${s(p.account_id)} risk state: ${EN_STATE[s(p.state)] ?? s(p.state)}${p.reason ? ` (${EN_REASON[s(p.reason)] ?? s(p.reason)})` : ''}`,
  wallet_status: (p) =>
    `${p.kind === 'withdrawal' ? 'Withdrawal' : 'Deposit'} of ${s(p.amount)} ${s(p.status)}`,
  announcement: (p) => `New announcement: ${s(p.title)}`,
};

/** One line saying what happened, in `language`. */
export function notificationText(
  kind: NotificationKind,
  params: NotificationParams,
  language: NotificationLanguage,
): string {
  return (language === 'en' ? en : zh)[kind](params);
}

/** The e-mail's subject line. */
export function notificationSubject(language: NotificationLanguage): string {
  return language === 'en' ? 'QuantSquare notification' : 'QuantSquare 通知';
}

/** The bot's own answers to /start and /stop. */
export const TELEGRAM_REPLIES: Record<
  NotificationLanguage,
  { linked: string; unlinked: string; badCode: string; help: string }
> = {
  'zh-CN': {
    linked: '已绑定 QuantSquare 账户，之后的通知会发送到这里。发送 /stop 解除绑定。',
    unlinked: '已解除绑定，不会再收到通知。',
    badCode: '绑定码无效或已过期，请在 QuantSquare 个人页面重新获取。',
    help: '请在 QuantSquare 个人页面的“通知设置”中获取绑定链接。',
  },
  en: {
    linked:
      'Linked to your QuantSquare account: notifications will come here. Send /stop to unlink.',
    unlinked: 'Unlinked: no more notifications will come here.',
    badCode: 'This link code is wrong or expired; get a new one on your QuantSquare profile page.',
    help: 'Get a link from "Notification settings" on your QuantSquare profile page.',
  },
};
