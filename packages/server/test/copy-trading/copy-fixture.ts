import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { createPaperAccount } from '../helpers/bot-flows.js';
import { call, type TestApp } from '../helpers/test-app.js';
import { adjust, newUser, type WalletUser } from '../helpers/wallet-flows.js';

export const COPY = '/api/strategy-square/copy-trading';

/** A user with `coins` platform coins (support credit) and a paper account of their own. */
export async function copier(
  t: TestApp,
  coins = '200',
  account: Record<string, unknown> = {},
): Promise<WalletUser & { accountId: number }> {
  const user = await newUser(t, { prefix: 'copier' });
  if (Number(coins) > 0) await adjust(t, user.email, coins);
  const accountId = await createPaperAccount(t.app, user.access, { name: 'Follower', ...account });
  return { ...user, accountId };
}

/** A user whose paper account is a public strategy (share settings `settings`). */
export async function leader(
  t: TestApp,
  settings: Record<string, unknown> = {},
  account: Record<string, unknown> = {},
): Promise<WalletUser & { accountId: number }> {
  const user = await newUser(t, { prefix: 'leader' });
  const accountId = await createPaperAccount(t.app, user.access, { name: 'Leader', ...account });
  const res = await call(
    t.app,
    'PUT',
    `/api/strategy-square/accounts/${accountId}/share-settings/`,
    {
      token: user.access,
      body: { is_public: true, ...settings },
    },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...user, accountId };
}

export const createCopy = (app: FastifyInstance, token: string, body: Record<string, unknown>) =>
  call(app, 'POST', `${COPY}/create/`, { token, body });
