import {
  type BalanceResponse,
  type ConnectionTestResponse,
  type ExchangeApi,
  type ExchangeApiCreateRequest,
  type ExchangeApiDeleteResponse,
  type ExchangeApiList,
  type ExchangeApiUpdateRequest,
  type ExchangeErrorKindCode,
  FIELD_ERROR_CODES,
  type OperationLogEvent,
  PAPER_BALANCE_DEFAULT,
  type ValidateResponse,
} from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import { decimalText } from '../../common/decimal-text.js';
import { NotFound, ValidationFailed } from '../../common/errors.js';
import type { SecretBox } from '../../common/secret-box.js';
import type { ExchangeAccountRow } from '../../db/schema/index.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { AccountClients } from '../../exchange/account-clients.js';
import { EXCHANGE_CAPABILITIES } from '../../exchange/exchange-capabilities.js';
import type { StepUp } from '../auth/step-up.js';
import type { BotControl } from '../bots/bot-control.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import type { BalanceSnapshotsService } from './balance-snapshots.service.js';
import {
  type AccountCopies,
  type AccountOwnerPositions,
  createAccountDeletion,
} from './exchange-account-deletion.js';
import { maskApiKey, toExchangeApi } from './exchange-accounts.mappers.js';
import type {
  AccountBot,
  ExchangeAccountChanges,
  ExchangeAccountsRepository,
} from './exchange-accounts.repository.js';
import { exchangeErrorKind, exchangeErrorMessage, withTimeout } from './exchange-call.js';

export const ACCOUNT_MESSAGES = {
  notFound: 'Exchange API not found',
  required: 'This field is required',
  connectionSuccessful: 'Connection successful',
  keyValid: 'API key is valid',
  balanceFetched: 'Balance fetched',
  withdrawWarning:
    'This key can withdraw funds: we recommend a trade-only key with an IP allowlist',
  noIpAllowlistWarning: 'This key has no IP allowlist: we recommend restricting it to your server',
} as const;

export interface ExchangeAccountsLogger {
  warn(details: object, message: string): void;
}

/** An account's change and its log entry, written in one transaction. */
export interface AccountWrites {
  readonly accounts: ExchangeAccountsRepository;
  readonly operationLog: OperationLogWriter | undefined;
}

export interface ExchangeAccountsServiceDeps {
  readonly repo: ExchangeAccountsRepository;
  readonly writes: UnitOfWork<AccountWrites>;
  readonly secretBox: SecretBox;
  readonly clientFor: AccountClients;
  readonly snapshots: BalanceSnapshotsService;
  readonly clock: Clock;
  /** Bound of one interactive check (test connection, validate, balance). */
  readonly exchangeTimeoutMs: number;
  readonly log: ExchangeAccountsLogger;
  /** The bot engine: deleting an account closes its stopped bots' positions through it. */
  readonly botControl?: BotControl | undefined;
  /** Webhook configurations' positions: closed before their account is deleted. */
  readonly ownerPositions?: AccountOwnerPositions | undefined;
  /** Copy trading: the copies the account drives end before it is deleted. */
  readonly copies?: AccountCopies | undefined;
  /**
   * Adding or changing a live key needs the authenticator code of a user with 2FA on. The app
   * always passes it; builds without it (workers, service tests) serve no user requests.
   */
  readonly stepUp?: StepUp | undefined;
}

const publicBot = ({ accountId: _accountId, ...bot }: AccountBot) => bot;

const needsPassphrase = (exchange: ExchangeAccountRow['exchange']) =>
  EXCHANGE_CAPABILITIES[exchange].needsPassphrase;

/**
 * Runs an exchange check for the account within the bound, and stores its result: the
 * account's status follows its last check.
 */
async function reach<T>(
  deps: Pick<ExchangeAccountsServiceDeps, 'repo' | 'clock' | 'exchangeTimeoutMs' | 'log'>,
  account: ExchangeAccountRow,
  work: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; message: string; kind: ExchangeErrorKindCode }> {
  try {
    // Building the client may throw too (e.g. missing passphrase): same answer as a failed call.
    const value = await withTimeout(Promise.resolve().then(work), deps.exchangeTimeoutMs);
    await deps.repo.recordCheck(account.id, { ok: true }, deps.clock.now());
    return { ok: true, value };
  } catch (error) {
    const message = exchangeErrorMessage(error);
    const kind = exchangeErrorKind(error);
    deps.log.warn({ accountId: account.id, err: error }, 'exchange call failed');
    await deps.repo.recordCheck(account.id, { ok: false, kind, message }, deps.clock.now());
    return { ok: false, message, kind };
  }
}

/** The bots of accounts, by account. */
async function botsOfAccounts(
  repo: ExchangeAccountsRepository,
  ids: readonly number[],
): Promise<Map<number, AccountBot[]>> {
  const byAccount = new Map<number, AccountBot[]>();
  for (const bot of await repo.botsOf(ids)) {
    const list = byAccount.get(bot.accountId) ?? [];
    list.push(bot);
    byAccount.set(bot.accountId, list);
  }
  return byAccount;
}

/** The columns of the keys given, encrypted (and the API key's mask). */
function encryptedKeys(
  secretBox: SecretBox,
  input: {
    api_key?: string | undefined;
    api_secret?: string | undefined;
    api_password?: string | undefined;
  },
): ExchangeAccountChanges {
  const changes: ExchangeAccountChanges = {};
  if (input.api_key !== undefined) {
    changes.apiKeyEncrypted = secretBox.encrypt(input.api_key);
    changes.apiKeyMasked = maskApiKey(input.api_key);
  }
  if (input.api_secret !== undefined) {
    changes.apiSecretEncrypted = secretBox.encrypt(input.api_secret);
  }
  if (input.api_password !== undefined && input.api_password !== '') {
    changes.apiPasswordEncrypted = secretBox.encrypt(input.api_password);
  }
  return changes;
}

/** A new account's first balance snapshot (its day start). */
async function recordCreationSnapshot(
  deps: Pick<ExchangeAccountsServiceDeps, 'snapshots' | 'clock' | 'log'>,
  account: ExchangeAccountRow,
): Promise<void> {
  // The first snapshot gives a new account its day start; an unreachable exchange only
  // delays that to the next hourly snapshot.
  try {
    await deps.snapshots.record(account, deps.clock.now());
  } catch (error) {
    deps.log.warn({ accountId: account.id, err: error }, 'first balance snapshot failed');
  }
}

async function logUserAction(
  operationLog: OperationLogWriter | undefined,
  userId: number,
  event: OperationLogEvent,
  message: string,
  details: Record<string, unknown>,
): Promise<void> {
  await operationLog?.record({ userId, type: 'user_action', event, message, details });
}

/** Validate: the key's permissions at the exchange, with warnings for risky ones. */
async function validateKey(
  deps: ExchangeAccountsServiceDeps,
  account: ExchangeAccountRow,
): Promise<ValidateResponse> {
  const result = await reach(deps, account, () => deps.clientFor(account).checkPermissions());
  if (!result.ok) {
    return {
      success: false,
      message: result.message,
      error_kind: result.kind,
      permissions: { can_trade: null, can_withdraw: null, ip_restricted: null },
      warnings: [],
    };
  }
  const permissions = result.value;
  const warnings: string[] = [];
  if (permissions.canWithdraw === true) warnings.push(ACCOUNT_MESSAGES.withdrawWarning);
  if (permissions.ipRestricted === false) warnings.push(ACCOUNT_MESSAGES.noIpAllowlistWarning);
  return {
    success: true,
    message: ACCOUNT_MESSAGES.keyValid,
    error_kind: null,
    permissions: {
      can_trade: permissions.canTrade,
      can_withdraw: permissions.canWithdraw,
      ip_restricted: permissions.ipRestricted,
    },
    warnings,
  };
}

/** The account's balance at the exchange, per currency. */
async function balanceOf(
  deps: ExchangeAccountsServiceDeps,
  account: ExchangeAccountRow,
): Promise<BalanceResponse> {
  const result = await reach(deps, account, () => deps.clientFor(account).fetchBalance());
  if (!result.ok) {
    return { success: false, balance: {}, message: result.message, error_kind: result.kind };
  }
  const balance: BalanceResponse['balance'] = {};
  for (const [currency, value] of Object.entries(result.value)) {
    balance[currency] = {
      total: decimalText(value.total),
      free: decimalText(value.free),
      used: decimalText(value.used),
    };
  }
  return {
    success: true,
    balance,
    message: ACCOUNT_MESSAGES.balanceFetched,
    error_kind: null,
  };
}

/** A live account needs its key, secret and (where the exchange has one) passphrase. */
function requireLiveKeys(input: ExchangeApiCreateRequest): void {
  const fields: Record<string, string[]> = {};
  if (!input.api_key) fields.api_key = [ACCOUNT_MESSAGES.required];
  if (!input.api_secret) fields.api_secret = [ACCOUNT_MESSAGES.required];
  if (needsPassphrase(input.exchange) && !input.api_password) {
    fields.api_password = [ACCOUNT_MESSAGES.required];
  }
  if (Object.keys(fields).length > 0) {
    throw new ValidationFailed(
      fields,
      undefined,
      Object.fromEntries(Object.keys(fields).map((key) => [key, [FIELD_ERROR_CODES.required]])),
    );
  }
}

/** The columns an update changes: the fields it gives, and new keys with a fresh verdict. */
function accountChanges(
  input: ExchangeApiUpdateRequest,
  keyChanges: ExchangeAccountChanges,
  now: Date,
): ExchangeAccountChanges {
  return {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.account_type !== undefined ? { accountType: input.account_type } : {}),
    ...(input.is_testnet !== undefined ? { isTestnet: input.is_testnet } : {}),
    ...(input.position_mode !== undefined ? { positionMode: input.position_mode } : {}),
    ...(input.default_leverage !== undefined ? { defaultLeverage: input.default_leverage } : {}),
    ...(input.is_active !== undefined ? { isActive: input.is_active } : {}),
    ...keyChanges,
    // New keys deserve a fresh verdict.
    ...(Object.keys(keyChanges).length > 0
      ? { lastError: null, lastErrorKind: null, lastCheckOk: null, lastCheckedAt: null }
      : {}),
    updatedAt: now,
  };
}

/** Writes a new account and its operation-log line in one transaction. */
function insertAccount(
  writes: ExchangeAccountsServiceDeps['writes'],
  userId: number,
  input: ExchangeApiCreateRequest,
  keys: ExchangeAccountChanges,
  now: Date,
): Promise<ExchangeAccountRow> {
  return writes(async (tx) => {
    const inserted = await tx.accounts.insert({
      userId,
      name: input.name,
      exchange: input.exchange,
      accountType: input.account_type,
      isTestnet: input.is_testnet,
      isPaper: input.is_paper,
      positionMode: input.position_mode,
      defaultLeverage: input.default_leverage,
      isActive: input.is_active,
      ...keys,
      paperBalance: input.is_paper
        ? new Decimal(input.paper_balance ?? PAPER_BALANCE_DEFAULT).toString()
        : null,
      createdAt: now,
      updatedAt: now,
    });
    await logUserAction(
      tx.operationLog,
      userId,
      'api_created',
      `Added exchange API ${inserted.name}`,
      {
        exchange_api: inserted.id,
        name: inserted.name,
        exchange: inserted.exchange,
        is_paper: inserted.isPaper,
      },
    );
    return inserted;
  });
}

/** Writes an account's changes and its operation-log line (field names only) in one transaction. */
function updateAccount(
  writes: ExchangeAccountsServiceDeps['writes'],
  userId: number,
  id: number,
  input: ExchangeApiUpdateRequest,
  changes: ExchangeAccountChanges,
): Promise<ExchangeAccountRow> {
  return writes(async (tx) => {
    const updated = await tx.accounts.updateOwned(userId, id, changes);
    if (!updated) throw new NotFound(ACCOUNT_MESSAGES.notFound);
    await logUserAction(
      tx.operationLog,
      userId,
      'api_updated',
      `Updated exchange API ${updated.name}`,
      {
        exchange_api: updated.id,
        name: updated.name,
        // Field names only: new keys are never written to the log.
        changed: Object.keys(input).filter(
          (key) =>
            key !== 'google_code' && input[key as keyof ExchangeApiUpdateRequest] !== undefined,
        ),
      },
    );
    return updated;
  });
}

/**
 * Exchange API accounts of a user. Ownership is part of every lookup: another user's account
 * is "not found". Paper accounts ignore any keys sent (they have none to store).
 */
export function createExchangeAccountsService(deps: ExchangeAccountsServiceDeps) {
  const { repo, secretBox, clock } = deps;

  async function owned(userId: number, id: number): Promise<ExchangeAccountRow> {
    const row = await repo.findOwned(userId, id);
    if (!row) throw new NotFound(ACCOUNT_MESSAGES.notFound);
    return row;
  }

  /** The connection check of Test connection: markets and the balance, with the key. */
  const checkConnection = (account: ExchangeAccountRow) =>
    reach(deps, account, async () => {
      const client = deps.clientFor(account);
      await client.loadMarkets();
      await client.fetchBalance();
    });

  const botsByAccount = (ids: readonly number[]) => botsOfAccounts(repo, ids);

  const deletion = createAccountDeletion({
    writes: deps.writes,
    botControl: deps.botControl,
    ownerPositions: deps.ownerPositions,
    copies: deps.copies,
  });

  const present = async (row: ExchangeAccountRow): Promise<ExchangeApi> =>
    toExchangeApi(row, (await botsByAccount([row.id])).get(row.id)?.map(publicBot));

  return {
    async list(userId: number): Promise<ExchangeApiList> {
      const rows = await repo.listForUser(userId);
      const byAccount = await botsByAccount(rows.map((row) => row.id));
      return {
        results: rows.map((row) => toExchangeApi(row, byAccount.get(row.id)?.map(publicBot))),
        count: rows.length,
      };
    },

    async get(userId: number, id: number): Promise<ExchangeApi> {
      return present(await owned(userId, id));
    },

    /** `address`: the client's, for the step-up code's lock. */
    async create(
      userId: number,
      input: ExchangeApiCreateRequest,
      address = '',
    ): Promise<ExchangeApi> {
      const now = clock.now();
      let keys: ExchangeAccountChanges = {};
      if (!input.is_paper) {
        requireLiveKeys(input);
        await deps.stepUp?.confirm(userId, input.google_code, address);
        keys = encryptedKeys(secretBox, {
          api_key: input.api_key,
          api_secret: input.api_secret,
          // Only exchanges with a passphrase keep one; the form drops it for the others.
          api_password: needsPassphrase(input.exchange) ? input.api_password : undefined,
        });
      }
      const row = await insertAccount(deps.writes, userId, input, keys, now);
      // A live key is checked at once: the answer (and the list) shows the verdict, never a
      // 'normal' status for a key nobody has tried.
      if (row.isPaper || (await checkConnection(row)).ok) await recordCreationSnapshot(deps, row);
      return present((await repo.findOwned(userId, row.id)) ?? row);
    },

    async update(
      userId: number,
      id: number,
      input: ExchangeApiUpdateRequest,
      address = '',
    ): Promise<ExchangeApi> {
      const current = await owned(userId, id);
      const keyChanges = current.isPaper
        ? {}
        : encryptedKeys(secretBox, {
            api_key: input.api_key,
            api_secret: input.api_secret,
            api_password: needsPassphrase(current.exchange) ? input.api_password : undefined,
          });
      if (Object.keys(keyChanges).length > 0) {
        await deps.stepUp?.confirm(userId, input.google_code, address);
      }
      const changes = accountChanges(input, keyChanges, clock.now());
      const row = await updateAccount(deps.writes, userId, id, input, changes);
      // New keys are checked at once, as on adding.
      if (Object.keys(keyChanges).length > 0) {
        await checkConnection(row);
        return present(await owned(userId, id));
      }
      return present(row);
    },

    /**
     * Refused while a bot of the account runs ('Please stop the bot before deleting', as a
     * bot's own delete); see exchange-account-deletion.ts.
     */
    async remove(userId: number, id: number): Promise<ExchangeApiDeleteResponse> {
      const account = await owned(userId, id);
      return deletion.remove(userId, account, (await botsByAccount([id])).get(id) ?? []);
    },

    async testConnection(userId: number, id: number): Promise<ConnectionTestResponse> {
      const result = await checkConnection(await owned(userId, id));
      return result.ok
        ? { success: true, message: ACCOUNT_MESSAGES.connectionSuccessful, error_kind: null }
        : { success: false, message: result.message, error_kind: result.kind };
    },

    validate: async (userId: number, id: number): Promise<ValidateResponse> =>
      validateKey(deps, await owned(userId, id)),

    balance: async (userId: number, id: number): Promise<BalanceResponse> =>
      balanceOf(deps, await owned(userId, id)),
  };
}
export type ExchangeAccountsService = ReturnType<typeof createExchangeAccountsService>;
