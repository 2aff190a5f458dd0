import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, users, verificationCodes } from '../../src/db/schema/index.js';
import {
  latestCode,
  PASSWORD,
  registerEmail,
  sendCode,
  uniqueEmail,
} from '../helpers/auth-flows.js';
import { useTestApp } from '../helpers/test-app.js';

const ctx = useTestApp();

describe('what is stored', () => {
  it('stores verification codes as hashes, never the code itself', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    ctx.clock.advanceSeconds(61);
    await sendCode(ctx.app, 'email', email);
    const code = await latestCode(ctx.app, email);
    const rows = await ctx.database.db
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.target, email));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it('stores passwords as argon2id hashes with m >= 19456 KiB and t >= 2', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    expect(user?.passwordHash).not.toContain(PASSWORD);
    const params = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=\d+\$/.exec(user?.passwordHash ?? '');
    expect(params).not.toBeNull();
    expect(Number(params?.[1])).toBeGreaterThanOrEqual(19456);
    expect(Number(params?.[2])).toBeGreaterThanOrEqual(2);
  });

  it('keeps one session row per login, stored in UTC', async () => {
    const email = uniqueEmail();
    await registerEmail(ctx.app, email);
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    const rows = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user!.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.createdAt.toISOString()).toBe(ctx.clock.now().toISOString());
  });
});
