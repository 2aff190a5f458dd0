import {
  WEBHOOK_ACTIONS,
  WEBHOOK_AMOUNT_DEFAULT,
  WEBHOOK_LEVERAGE_DEFAULT,
  WEBHOOK_MAX_SIGNAL_AGE_DEFAULT,
  type WebhookAction,
  type WebhookConfig,
  type WebhookConfigCreateRequest,
} from '@quantsquare/contracts';

// What the webhook configuration form holds, and how it maps to and from the API's shapes.

export interface FormValues {
  name: string;
  exchange_api?: number;
  symbol_mode: 'fixed' | 'alert';
  symbol?: string;
  default_amount: number | null;
  max_amount: number | null;
  leverage: number | null;
  allowed_actions: WebhookAction[];
  allow_pyramiding: boolean;
  max_signal_age: number | null;
  ip_allowlist: string[];
  enabled: boolean;
}

export const FIELDS = new Set<string>([
  'name',
  'exchange_api',
  'symbol',
  'default_amount',
  'max_amount',
  'leverage',
  'allowed_actions',
  'allow_pyramiding',
  'max_signal_age',
  'ip_allowlist',
  'enabled',
]);

export const NEW_VALUES: FormValues = {
  name: '',
  symbol_mode: 'fixed',
  symbol: 'BTC/USDT:USDT',
  default_amount: WEBHOOK_AMOUNT_DEFAULT,
  max_amount: null,
  leverage: WEBHOOK_LEVERAGE_DEFAULT,
  allowed_actions: [...WEBHOOK_ACTIONS],
  allow_pyramiding: false,
  max_signal_age: WEBHOOK_MAX_SIGNAL_AGE_DEFAULT,
  ip_allowlist: [],
  enabled: true,
};

export function valuesOf(config: WebhookConfig): FormValues {
  return {
    name: config.name,
    exchange_api: config.exchange_api,
    symbol_mode: config.symbol ? 'fixed' : 'alert',
    symbol: config.symbol ?? undefined,
    default_amount: Number(config.default_amount),
    max_amount: config.max_amount === null ? null : Number(config.max_amount),
    leverage: config.leverage,
    allowed_actions: config.allowed_actions,
    allow_pyramiding: config.allow_pyramiding,
    max_signal_age: config.max_signal_age,
    ip_allowlist: config.ip_allowlist,
    enabled: config.enabled,
  };
}

export function bodyOf(values: FormValues): WebhookConfigCreateRequest {
  return {
    name: values.name.trim(),
    exchange_api: values.exchange_api ?? 0,
    symbol: values.symbol_mode === 'fixed' ? (values.symbol?.trim() ?? null) : null,
    default_amount: String(values.default_amount),
    max_amount: values.max_amount === null ? null : String(values.max_amount),
    leverage: values.leverage ?? WEBHOOK_LEVERAGE_DEFAULT,
    allowed_actions: values.allowed_actions,
    allow_pyramiding: values.allow_pyramiding,
    max_signal_age: values.max_signal_age ?? WEBHOOK_MAX_SIGNAL_AGE_DEFAULT,
    ip_allowlist: values.ip_allowlist.map((ip) => ip.trim()).filter(Boolean),
    enabled: values.enabled,
  };
}
