import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { ManualClock } from '../../src/common/clock.js';
import { createServices, type Services } from '../../src/composition.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { exchangeAccounts } from '../../src/db/schema/index.js';
import { createInProcessEventBus, type EventBus } from '../../src/events/index.js';
import { createCcxtExchangeClient } from '../../src/exchange/ccxt/index.js';
import { ExchangeAdapterError, type ExchangeClient } from '../../src/exchange/exchange-client.js';
import {
  createExchangeClientFactory,
  type ExchangeClientFactory,
} from '../../src/exchange/exchange-client-factory.js';
import { writePaperBalances } from '../../src/modules/accounts/account-records.service.js';
import { FixedPrices, scriptedFactory } from '../helpers/exchange-doubles.js';
import { TEST_SECRET_KEY, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { copier, createCopy, type leader } from './copy-fixture.js';

export const BTC = 'BTC/USDT:USDT';

/** OKX's BTC swap: one contract is 0.01 BTC, orders in whole contracts. */
export const OKX_BTC_FACTS = {
  contractSize: 0.01,
  amountStep: 0.01,
  priceStep: 0.1,
  minAmount: 0.01,
  minNotional: 0,
  maxLeverage: 125,
};

/** A gate a hanging client waits on until the test opens it. */
export class Gate {
  private release!: () => void;
  readonly opened = new Promise<void>((resolve) => {
    this.release = resolve;
  });
  open(): void {
    this.release();
  }
}

export interface CopyEngineApp extends TestApp {
  services: Services;
  bus: EventBus;
  prices: FixedPrices;
  /** Accounts named `Hang…` wait on this gate, then refuse the key. */
  hang: Gate;
  /** Accounts whose client loaded its markets, in order. */
  marketLoads: number[];
}

export interface CopyEngineAppOptions {
  /**
   * Live accounts trade through the real ccxt client on the fake venue at the URL this answers
   * for their API key; without it they answer as scripted (`scriptedFactory`).
   */
  readonly liveVenueUrl?: (apiKey: string) => string;
}

/**
 * The app on services the test can reach (the execution core, the copy engine): paper accounts
 * on fixed prices; paper accounts on OKX trade whole 0.01-BTC contracts as OKX does; accounts
 * named `Hang…` wait on a gate and then answer an invalid key.
 */
export function useCopyEngineApp(options: CopyEngineAppOptions = {}): CopyEngineApp {
  let state: (Omit<CopyEngineApp, 'close'> & { app: FastifyInstance; dataDir: string }) | undefined;
  const prices = new FixedPrices();
  prices.set(BTC, 50_000);
  const hang = new Gate();
  const marketLoads: number[] = [];
  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'qs-copy-test-'));
    const config: Config = Object.freeze({
      ...loadConfig(
        {
          NODE_ENV: 'test',
          SECRET_KEY: TEST_SECRET_KEY,
          DATA_DIR: dataDir,
          WEB_DIST_DIR: path.join(dataDir, 'no-web-dist'),
          MARKET_DATA: 'simulated',
        },
        { generateSecret: false },
      ),
      authIpRatePerMinute: 100_000,
    });
    const database: DatabaseHandle = await createTestDatabase();
    const clock = new ManualClock();
    const bus = createInProcessEventBus({ clock });
    const scripted = scriptedFactory({ database, clock }, prices);
    const liveVenueUrl = options.liveVenueUrl;
    const onVenue = liveVenueUrl
      ? createExchangeClientFactory({
          paperBalances: writePaperBalances,
          db: database.db,
          clock,
          prices,
          paperSlippageBps: 2,
          createLiveClient: (live) =>
            createCcxtExchangeClient({
              ...live,
              urlsOverride: liveVenueUrl(live.apiKey),
              timeoutMs: 2000,
            }),
        })
      : undefined;
    const base: ExchangeClientFactory = (account) =>
      onVenue && !account.isPaper ? onVenue(account) : scripted(account);
    const names = async (id: number) =>
      (
        await database.db
          .select({ name: exchangeAccounts.name })
          .from(exchangeAccounts)
          .where(eq(exchangeAccounts.id, id))
      )[0]?.name ?? '';
    const factory: ExchangeClientFactory = (account) => {
      const client = base(account);
      const okx: ExchangeClient =
        account.exchange === 'okx' && !(onVenue && !account.isPaper)
          ? { ...client, marketFacts: async (symbol) => ({ symbol, ...OKX_BTC_FACTS }) }
          : client;
      const refuse = async () => {
        if ((await names(account.id)).startsWith('Hang')) {
          await hang.opened;
          throw new ExchangeAdapterError(
            'invalid_key',
            'binance {"code":-2015,"msg":"Invalid API-key"}',
          );
        }
      };
      return {
        ...okx,
        loadMarkets: async () => {
          marketLoads.push(account.id);
          await okx.loadMarkets();
        },
        marketFacts: async (symbol) => {
          await refuse();
          return okx.marketFacts(symbol);
        },
      };
    };
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const services = await createServices({
      config,
      db: database.db,
      databaseKind: database.kind,
      clock,
      log: quiet,
      exchangeClientFactory: factory,
      eventBus: bus,
    });
    const app = await buildApp({
      config,
      db: database.db,
      databaseKind: database.kind,
      logger: false,
      services,
    });
    await app.ready();
    state = { app, database, clock, config, services, bus, prices, hang, marketLoads, dataDir };
  });
  afterAll(async () => {
    if (!state) return;
    await state.services.copyTrading.engine.stop();
    await state.app.close();
    await state.bus.close();
    await state.database.close();
    rmSync(state.dataDir, { recursive: true, force: true });
  });
  const get = () => {
    if (!state) throw new Error('used before beforeAll');
    return state;
  };
  return {
    get app() {
      return get().app;
    },
    get database() {
      return get().database;
    },
    get clock() {
      return get().clock;
    },
    get config() {
      return get().config;
    },
    get services() {
      return get().services;
    },
    get bus() {
      return get().bus;
    },
    prices,
    hang,
    marketLoads,
    close: async () => undefined,
  };
}

/** Retries `check` until it passes (the bus delivers on a later tick). */
export function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: 20 });
}

/**
 * What the engine's tests do to the app: the leader trades, a new copier follows, a follower's
 * copied size is read (BTC, through the execution core).
 */
export function copyFlows(t: CopyEngineApp) {
  let keyCounter = 0;
  type Lead = Awaited<ReturnType<typeof leader>>;
  return {
    /** The leader trades to `size` BTC (as a manual order through the execution core). */
    async leaderTo(lead: Lead, size: number): Promise<void> {
      const result = await t.services.execution.submit({
        accountId: lead.accountId,
        symbol: BTC,
        owner: { kind: 'manual', id: lead.id },
        key: `lead${++keyCounter}`,
        size: { kind: 'target', amount: size },
        action: 'manual',
      });
      expect(['filled', 'noop']).toContain(result.status);
      // The bus hands the fill's events to the copy engine on the next turn: once it has, the
      // engine's work on them is what its idle() waits for.
      await new Promise((resolve) => setImmediate(resolve));
      t.clock.advanceSeconds(5);
    },
    /** A new copier (200 coins, a paper account with `account`) copies `lead` with `body`. */
    async follow(
      lead: Lead,
      body: Record<string, unknown> = {},
      account: Record<string, unknown> = {},
    ) {
      const follower = await copier(t, '200', account);
      const res = await createCopy(t.app, follower.access, {
        leader_account_id: lead.accountId,
        follower_account_id: follower.accountId,
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { ...follower, relationId: res.body.id as number };
    },
    /** The relation's copied BTC position on the follower's account (signed). */
    async copiedSize(followerAccountId: number, relationId: number): Promise<number> {
      const position = await t.services.execution.position({
        accountId: followerAccountId,
        symbol: BTC,
        owner: { kind: 'copy', id: relationId },
      });
      return Number(position.size);
    },
  };
}
