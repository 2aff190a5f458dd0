import { hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AUTH_IP_RATE_PER_MINUTE,
  CODE_COOLDOWN_SECONDS,
  type DepositNetwork,
  isAddressFormatValid,
  REQUEST_BODY_LIMIT_BYTES,
  WEBHOOK_SIGNALS_PER_MINUTE,
} from '@quantsquare/contracts';
import { z } from 'zod';
import type { TwilioSettings } from './delivery/twilio-sms.js';

// The one file that reads process.env. Everything else receives a frozen Config.

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
/** An address people open in a browser: http or https only. */
const webUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });
const minDepositAmount = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, { message: 'a positive amount with at most 2 decimals' })
    .refine((v) => Number(v) > 0, { message: 'must be above 0' })
    .default('10'),
);

const envSchema = z.object({
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(8000)),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: optionalString,
  TEST_DATABASE_URL: optionalString,
  REDIS_URL: optionalString,
  REDIS_PREFIX: optionalString,
  ROLE: z.preprocess(emptyToUndefined, z.enum(['all', 'api', 'worker']).default('all')),
  SECRET_KEY: z.preprocess(emptyToUndefined, z.string().min(32).optional()),
  JWT_SECRET: z.preprocess(emptyToUndefined, z.string().min(32).optional()),
  /** The previous SECRET_KEY, read only by `admin rotate-secret-key` to decrypt old values. */
  OLD_SECRET_KEY: z.preprocess(emptyToUndefined, z.string().min(32).optional()),
  PAPER_SLIPPAGE_BPS: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(1000).default(2)),
  /** New webhook signals one configuration takes per minute (benchmarks raise it). */
  WEBHOOK_SIGNALS_PER_MINUTE: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(1_000_000).default(WEBHOOK_SIGNALS_PER_MINUTE),
  ),
  /** The venues' REST base URLs for live accounts (a regional host, a stand-in venue). */
  /** Seconds between two codes to one address (the spec's 60; shorter only for test servers). */
  CODE_COOLDOWN_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(3600).default(CODE_COOLDOWN_SECONDS),
  ),
  EXCHANGE_URL_BINANCE: z.preprocess(emptyToUndefined, webUrl.optional()),
  EXCHANGE_URL_OKX: z.preprocess(emptyToUndefined, webUrl.optional()),
  MARKET_DATA: z.preprocess(
    emptyToUndefined,
    z.enum(['auto', 'live', 'simulated']).default('auto'),
  ),
  SMTP_URL: optionalString,
  /** Twilio SMS: all three, or none (then SMS codes go to the outbox). */
  TWILIO_ACCOUNT_SID: optionalString,
  TWILIO_AUTH_TOKEN: optionalString,
  TWILIO_FROM: optionalString,
  TWILIO_API_URL: z.preprocess(emptyToUndefined, z.url().default('https://api.twilio.com')),
  /** Telegram notifications: the bot's token (unset: no Telegram channel, no poller). */
  TELEGRAM_BOT_TOKEN: optionalString,
  TELEGRAM_API_URL: z.preprocess(emptyToUndefined, z.url().default('https://api.telegram.org')),
  SMS_DEFAULT_COUNTRY_CODE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[1-9][0-9]{0,3}$/)
      .default('86'),
  ),
  NODE_ENV: z.preprocess(
    emptyToUndefined,
    z.enum(['development', 'production', 'test']).default('development'),
  ),
  WEB_DIST_DIR: optionalString,
  /** Reverse proxies whose X-Forwarded-For is believed (see `trustProxyFrom`). */
  TRUST_PROXY: optionalString,
  /** Contact details of the help centre and the site footer (GET /api/help/contact/). */
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.email().default('support@quantsquare.example')),
  TELEGRAM_URL: z.preprocess(emptyToUndefined, webUrl.default('https://t.me/quantsquare')),
  X_URL: z.preprocess(emptyToUndefined, webUrl.default('https://x.com/quantsquare')),
  /** Defaults to this server's own address (http://localhost:PORT). */
  WEBSITE_URL: z.preprocess(emptyToUndefined, webUrl.optional()),
  DEPOSIT_TRC20_ADDRESS: optionalString,
  DEPOSIT_BEP20_ADDRESS: optionalString,
  DEPOSIT_OFFCHAIN_ACCOUNT: optionalString,
  DEPOSIT_TRC20_MIN_AMOUNT: minDepositAmount,
  DEPOSIT_BEP20_MIN_AMOUNT: minDepositAmount,
  DEPOSIT_OFFCHAIN_MIN_AMOUNT: minDepositAmount,
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  ),
});

/** Where users send coins on one deposit network, and the least they may declare. */
export interface DepositNetworkConfig {
  readonly network: DepositNetwork;
  /** The chain address, or for OFFCHAIN the account or instructions users pay to. */
  readonly address: string;
  /** Decimal string, e.g. "10". */
  readonly minAmount: string;
}

/**
 * Development addresses (valid formats, nobody's wallet): outside production a network without a
 * configured address uses these; in production it is simply not offered.
 */
export const DEVELOPMENT_DEPOSIT_ADDRESSES: Readonly<Record<DepositNetwork, string>> = {
  TRC20: 'TR2PM4iffiCeZmJsX7vApnCVusyCBFTqsH',
  BEP20: '0x842e7eac55a2d808cfaad21d4ff4eff8e008b2c6',
  OFFCHAIN: 'QuantSquare support (development): quote your reference to support',
};

export interface Config {
  readonly port: number;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly testDatabaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  /**
   * What this process does: `all` (one process: HTTP and workers), `api` (HTTP, websockets, the
   * webhook receiver) or `worker` (bots, copy trading, webhook execution, scheduled jobs). A split
   * needs PostgreSQL and Redis (the processes share leases and events through them).
   */
  readonly role: 'all' | 'api' | 'worker';
  /** The Redis channel prefix of this deployment's events (several deployments on one Redis). */
  readonly redisPrefix: string | undefined;
  readonly secretKey: string;
  readonly jwtSecret: string;
  /** The previous SECRET_KEY during a key rotation (see `admin rotate-secret-key`). */
  readonly oldSecretKey: string | undefined;
  /** Paper accounts fill market orders this many basis points away from the feed's price. */
  readonly paperSlippageBps: number;
  readonly marketData: 'auto' | 'live' | 'simulated';
  /**
   * The REST base URL of each venue's live accounts where it is not the venue's own (a regional
   * host, a stand-in venue for staging): adding an account, its check and its orders go there.
   */
  readonly exchangeUrls: Readonly<Partial<Record<'binance' | 'okx', string>>>;
  readonly smtpUrl: string | undefined;
  /** Real SMS delivery; without it SMS codes go to the outbox. */
  readonly sms: TwilioSettings | undefined;
  /** Telegram notifications through the Bot API; unset without TELEGRAM_BOT_TOKEN. */
  readonly telegram: { readonly botToken: string; readonly apiUrl: string } | undefined;
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly isProduction: boolean;
  readonly webDistDir: string;
  readonly logLevel: string;
  readonly bodyLimitBytes: number;
  /**
   * Which peers' X-Forwarded-For gives the client's address (sign-in limits, webhook
   * allowlists, logs): none (false, the default: the peer is the client), or the addresses and
   * CIDR ranges of the reverse proxies in front of the server.
   */
  readonly trustProxy: false | readonly string[];
  /** The deposit networks offered, in the order TRC20, BEP20, OFFCHAIN. */
  readonly depositNetworks: readonly DepositNetworkConfig[];
  /** Sign-in calls per IP per minute (a constant of the spec; tests raise it). */
  readonly authIpRatePerMinute: number;
  /** New signals per webhook configuration per minute before 429. */
  readonly webhookSignalsPerMinute: number;
  /** Seconds a send-code waits after the last code to the same address. */
  readonly codeCooldownSeconds: number;
  /** The operators' channels shown in the help centre and the footer. */
  readonly contact: {
    readonly supportEmail: string;
    readonly telegramUrl: string;
    readonly xUrl: string;
    readonly websiteUrl: string;
  };
  /** A user's exchange check (test connection, validate, balance) answers within this time. */
  readonly exchangeCheckTimeoutMs: number;
}

/**
 * A user waits for a test connection, validate or balance: whatever the exchange does (an
 * unreachable host, retries with backoff), the answer comes within this time.
 */
export const EXCHANGE_CHECK_TIMEOUT_MS = 5_000;

export class ConfigError extends Error {}

/** Reads DATA_DIR/secret.key, creating it (mode 0600) on first start. */
function readOrCreateSecretKey(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (key.length >= 32) return key;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

function deriveJwtSecret(secretKey: string): string {
  return Buffer.from(hkdfSync('sha256', secretKey, 'quantsquare', 'jwt-signing-v1', 32)).toString(
    'base64url',
  );
}

function depositNetworksFrom(e: z.infer<typeof envSchema>): DepositNetworkConfig[] {
  const isProduction = e.NODE_ENV === 'production';
  const configured: [DepositNetwork, string | undefined, string][] = [
    ['TRC20', e.DEPOSIT_TRC20_ADDRESS, e.DEPOSIT_TRC20_MIN_AMOUNT],
    ['BEP20', e.DEPOSIT_BEP20_ADDRESS, e.DEPOSIT_BEP20_MIN_AMOUNT],
    ['OFFCHAIN', e.DEPOSIT_OFFCHAIN_ACCOUNT, e.DEPOSIT_OFFCHAIN_MIN_AMOUNT],
  ];
  const networks: DepositNetworkConfig[] = [];
  for (const [network, given, minAmount] of configured) {
    const address =
      given?.trim() ?? (isProduction ? undefined : DEVELOPMENT_DEPOSIT_ADDRESSES[network]);
    if (!address) continue;
    if (network !== 'OFFCHAIN' && !isAddressFormatValid(network, address)) {
      throw new ConfigError(`DEPOSIT_${network}_ADDRESS is not a ${network} address`);
    }
    networks.push(Object.freeze({ network, address, minAmount }));
  }
  return networks;
}

/**
 * TRUST_PROXY: empty or 'false' for none, else a comma list of the proxies' addresses and CIDR
 * ranges. 'true' (believe any peer) and hop counts (which cannot check the peer) are refused: a
 * client could then pick its own address and pass the sign-in limits and webhook allowlists.
 */
function trustProxyFrom(value: string | undefined): Config['trustProxy'] {
  const given = value?.trim();
  if (given === undefined || given === '' || given === 'false') return false;
  if (given === 'true' || /^\d+$/.test(given)) {
    throw new ConfigError(
      `TRUST_PROXY=${given} would let clients choose their address: give the proxies' addresses or CIDR ranges`,
    );
  }
  const entries = given.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const isRange =
      bits === undefined ||
      (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits && rest.length === 0);
    if (family === 0 || !isRange) {
      throw new ConfigError(`TRUST_PROXY: '${entry}' is not an IP address or CIDR range`);
    }
  }
  return Object.freeze(entries);
}

/**
 * Builds the config from an environment object. `generateSecret: false` (tests) demands
 * SECRET_KEY instead of touching the data dir.
 */
export function loadConfig(
  env: Record<string, string | undefined>,
  options: { generateSecret?: boolean } = {},
): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${details}`);
  }
  const e = parsed.data;
  // Relative to the repository root (the server's and the admin CLI's working directory under
  // npm), so every command finds the same ./data wherever it is typed.
  const dataDir = path.resolve(REPO_ROOT, e.DATA_DIR);
  if (e.NODE_ENV === 'production' && !e.SECRET_KEY) {
    throw new ConfigError('SECRET_KEY is required when NODE_ENV=production');
  }
  if (e.ROLE !== 'all' && (!e.DATABASE_URL || !e.REDIS_URL)) {
    throw new ConfigError(
      `ROLE=${e.ROLE} needs DATABASE_URL and REDIS_URL: split processes share PostgreSQL and Redis`,
    );
  }
  const depositNetworks = depositNetworksFrom(e);
  const twilio = [e.TWILIO_ACCOUNT_SID, e.TWILIO_AUTH_TOKEN, e.TWILIO_FROM];
  if (twilio.some((v) => v !== undefined) && !twilio.every((v) => v !== undefined)) {
    throw new ConfigError(
      'Twilio SMS needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM together',
    );
  }
  let secretKey = e.SECRET_KEY;
  if (!secretKey) {
    if (options.generateSecret === false) throw new ConfigError('SECRET_KEY is required');
    secretKey = readOrCreateSecretKey(dataDir);
  }
  return Object.freeze({
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    testDatabaseUrl: e.TEST_DATABASE_URL,
    redisUrl: e.REDIS_URL,
    role: e.ROLE,
    redisPrefix: e.REDIS_PREFIX,
    secretKey,
    jwtSecret: e.JWT_SECRET ?? deriveJwtSecret(secretKey),
    oldSecretKey: e.OLD_SECRET_KEY,
    paperSlippageBps: e.PAPER_SLIPPAGE_BPS,
    marketData: e.MARKET_DATA,
    exchangeUrls: Object.freeze({
      ...(e.EXCHANGE_URL_BINANCE ? { binance: e.EXCHANGE_URL_BINANCE.replace(/\/+$/, '') } : {}),
      ...(e.EXCHANGE_URL_OKX ? { okx: e.EXCHANGE_URL_OKX.replace(/\/+$/, '') } : {}),
    }),
    smtpUrl: e.SMTP_URL,
    sms:
      e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.TWILIO_FROM
        ? Object.freeze({
            accountSid: e.TWILIO_ACCOUNT_SID,
            authToken: e.TWILIO_AUTH_TOKEN,
            from: e.TWILIO_FROM,
            apiUrl: e.TWILIO_API_URL,
            defaultCountryCode: e.SMS_DEFAULT_COUNTRY_CODE,
          })
        : undefined,
    telegram: e.TELEGRAM_BOT_TOKEN
      ? Object.freeze({
          botToken: e.TELEGRAM_BOT_TOKEN,
          apiUrl: e.TELEGRAM_API_URL.replace(/\/+$/, ''),
        })
      : undefined,
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(REPO_ROOT, 'packages/web/dist')),
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    bodyLimitBytes: REQUEST_BODY_LIMIT_BYTES,
    trustProxy: trustProxyFrom(e.TRUST_PROXY),
    depositNetworks,
    authIpRatePerMinute: AUTH_IP_RATE_PER_MINUTE,
    webhookSignalsPerMinute: e.WEBHOOK_SIGNALS_PER_MINUTE,
    codeCooldownSeconds: e.CODE_COOLDOWN_SECONDS,
    contact: Object.freeze({
      supportEmail: e.SUPPORT_EMAIL,
      telegramUrl: e.TELEGRAM_URL,
      xUrl: e.X_URL,
      websiteUrl: e.WEBSITE_URL ?? `http://localhost:${e.PORT}`,
    }),
    exchangeCheckTimeoutMs: EXCHANGE_CHECK_TIMEOUT_MS,
  });
}

/** The process's own environment: the only place `process.env` is read. */
export function loadConfigFromEnvironment(): Config {
  return loadConfig(process.env);
}

/**
 * Where the admin CLI's database is, read before the full config (which may create a secret
 * key in DATA_DIR): the CLI must not create anything where no database exists.
 */
export function databaseLocationFromEnvironment(): {
  databaseUrl: string | undefined;
  dataDir: string;
} {
  const parsed = envSchema.pick({ DATA_DIR: true, DATABASE_URL: true }).safeParse(process.env);
  if (!parsed.success) throw new ConfigError('Invalid DATA_DIR or DATABASE_URL');
  return {
    databaseUrl: parsed.data.DATABASE_URL,
    dataDir: path.resolve(REPO_ROOT, parsed.data.DATA_DIR),
  };
}

/** Tests only: the PostgreSQL server whose databases tests may create and drop. */
export function testDatabaseUrlFromEnvironment(): string | undefined {
  const value = process.env.TEST_DATABASE_URL?.trim();
  return value ? value : undefined;
}

export const SERVER_PACKAGE_JSON = path.join(REPO_ROOT, 'packages/server/package.json');
