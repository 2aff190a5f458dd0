import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type APIRequestContext, expect } from '@playwright/test';
import { newCode, outboxIds } from './outbox';

const PASSWORD = 'correct-horse-42';
const auth = (access: string) => ({ authorization: `Bearer ${access}` });

/** A staff user made through the admin CLI (which hands the command to the running server). */
export async function staffSession(request: APIRequestContext): Promise<string> {
  const email = `staff-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  execFileSync(
    'npm',
    ['run', 'admin', '--', 'create-staff', '--email', email, '--password', PASSWORD],
    {
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
      stdio: 'pipe',
    },
  );
  const seen = await outboxIds(request, email);
  const sent = await request.post('/api/auth/send-code/', {
    data: { type: 'email', target: email, action: 'login' },
  });
  expect(sent.ok()).toBe(true);
  const code = await newCode(request, email, seen);
  const answer = await request.post('/api/auth/login/', {
    data: { email, password: PASSWORD, email_code: code },
  });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { access: string }).access;
}

/** Gives a user coins the way users get them: a deposit that staff approve. */
export async function giveCoins(
  request: APIRequestContext,
  access: string,
  amount: string,
  staff?: string,
) {
  const txHash = randomBytes(32).toString('hex');
  const deposit = await request.post('/api/auth/deposit/', {
    headers: auth(access),
    data: { network: 'TRC20', amount, tx_hash: txHash },
  });
  expect(deposit.ok()).toBe(true);
  const staffAccess = staff ?? (await staffSession(request));
  const queue = await request.get('/api/staff/deposits/?status=pending&page=1&page_size=50', {
    headers: auth(staffAccess),
  });
  const { results } = (await queue.json()) as { results: { id: number; tx_hash: string | null }[] };
  const row = results.find((r) => r.tx_hash === txHash);
  expect(row).toBeDefined();
  const approved = await request.post(`/api/staff/deposits/${row?.id}/approve/`, {
    headers: auth(staffAccess),
    data: {},
  });
  expect(approved.ok()).toBe(true);
}
