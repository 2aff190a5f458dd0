import { randomUUID } from 'node:crypto';
import { emailSchema, passwordSchema, requestIdSchema } from '@quantsquare/contracts';
import Decimal from 'decimal.js';
import { z } from 'zod';
import type { Clock } from '../../common/clock.js';
import {
  BadRequest,
  InsufficientBalance,
  NotFound,
  ValidationFailed,
} from '../../common/errors.js';
import { createSecretBox } from '../../common/secret-box.js';
import type { Database } from '../../db/database.js';
import { type UnitOfWork, unitOfWork } from '../../db/unit-of-work.js';
import type { EventBus } from '../../events/index.js';
import { experienceAccountForNewUsers } from '../accounts/experience-account.js';
import { createUserAccount } from '../auth/user-accounts.service.js';
import { userAccountsOn } from '../auth/user-records.service.js';
import { createLedger } from '../wallet/ledger.js';
import { checkLedger, describeMismatch } from '../wallet/ledger-check.js';
import { type AdminRepository, createAdminRepository } from './admin.repository.js';
import { planSecretRotation } from './secret-rotation.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The commands of `npm run admin`, as the CLI sends them (also over the admin socket). */
export const adminCommand = z.discriminatedUnion('command', [
  z.strictObject({
    command: z.literal('create-staff'),
    email: emailSchema,
    password: passwordSchema,
  }),
  z.strictObject({
    command: z.literal('grant-vip'),
    email: emailSchema,
    days: z.coerce.number().int().min(1).max(36500),
  }),
  z.strictObject({ command: z.literal('rotate-secret-key') }),
  z.strictObject({
    command: z.literal('credit'),
    email: emailSchema,
    /** Signed: a negative amount debits (refused below zero). */
    amount: z
      .string()
      .trim()
      .regex(/^-?\d{1,10}(\.\d{1,8})?$/, { message: 'a non-zero amount, at most 8 decimals' })
      .refine((v) => Number(v) !== 0, { message: 'a non-zero amount' }),
    reason: z.string().trim().min(1, { message: 'a reason is required' }).max(500),
    /** Makes a retried command act once. */
    'request-id': requestIdSchema.optional(),
  }),
  z.strictObject({ command: z.literal('check-ledger') }),
]);
export type AdminCommand = z.infer<typeof adminCommand>;

export interface AdminLogger {
  info(obj: Record<string, unknown>, msg: string): void;
}

export interface AdminSecretKeys {
  /** SECRET_KEY: every secret ends up encrypted under it. */
  readonly current: string;
  /** OLD_SECRET_KEY: the key the secrets were encrypted with before SECRET_KEY changed. */
  readonly old: string | undefined;
}

/** What the admin commands work with. */
export interface AdminServiceDeps {
  db: Database;
  clock: Clock;
  log: AdminLogger;
  secretKeys?: AdminSecretKeys;
  /** Where balance changes are announced: the server's bus, or the CLI's own. */
  events: EventBus;
}

/** The admin commands' shared handles, made once per service. */
interface AdminContext {
  readonly deps: AdminServiceDeps;
  readonly users: ReturnType<typeof userAccountsOn>;
  readonly ledger: ReturnType<typeof createLedger>;
  readonly actions: AdminRepository;
  readonly writes: UnitOfWork<{
    users: ReturnType<typeof userAccountsOn>;
    actions: AdminRepository;
  }>;
  readonly clock: Clock;
  readonly newUserHook: ReturnType<typeof experienceAccountForNewUsers>;
}

async function record(
  ctx: AdminContext,
  audit: AdminRepository,
  action: string,
  targetUserId: number,
  changes: Record<string, unknown>,
) {
  await audit.recordAction({ action, targetUserId, changes, createdAt: ctx.clock.now() });
  ctx.deps.log.info({ action, targetUserId, changes }, 'admin action');
}

async function createStaff(ctx: AdminContext, email: string, password: string): Promise<string> {
  const existing = await ctx.users.findUserByEmail(email);
  if (existing) {
    if (existing.isStaff) return `${email} is already staff (user ${existing.id})`;
    await ctx.writes(async (tx) => {
      await tx.users.updateUser(existing.id, { isStaff: true });
      await record(ctx, tx.actions, 'promote-staff', existing.id, {
        is_staff: { from: false, to: true },
      });
    });
    return `Promoted existing user ${email} (id ${existing.id}) to staff`;
  }
  const user = await ctx.writes(async (tx) => {
    const created = await createUserAccount(tx.users, ctx.clock, {
      email,
      phone: null,
      password,
      invitedById: null,
      isStaff: true,
      // A user made here gets what a registered one gets (the experience account).
      withUser: ctx.newUserHook,
    });
    await record(ctx, tx.actions, 'create-staff', created.id, { created: true, is_staff: true });
    return created;
  });
  return `Created staff user ${email} (id ${user.id})`;
}

/** Extends VIP by `days` from the later of now and the current expiry. */
async function grantVip(ctx: AdminContext, email: string, days: number): Promise<string> {
  const user = await ctx.users.findUserByEmail(email);
  if (!user) throw new NotFound(`No user with e-mail ${email}`);
  const now = ctx.clock.now();
  const base = user.vipExpiresAt && user.vipExpiresAt > now ? user.vipExpiresAt : now;
  const expiresAt = new Date(base.getTime() + days * DAY_MS);
  await ctx.writes(async (tx) => {
    await tx.users.updateUser(user.id, { isVip: true, vipExpiresAt: expiresAt });
    await record(ctx, tx.actions, 'grant-vip', user.id, {
      days,
      vip_expires_at: {
        from: user.vipExpiresAt?.toISOString() ?? null,
        to: expiresAt.toISOString(),
      },
    });
  });
  return `VIP of ${email} now expires at ${expiresAt.toISOString()}`;
}

/**
 * Re-encrypts every stored secret (TOTP seeds, exchange keys) under SECRET_KEY; values only
 * OLD_SECRET_KEY opens are re-sealed. All or nothing: one unreadable value aborts the run.
 */
async function rotateSecretKey(ctx: AdminContext): Promise<string> {
  const keys = ctx.deps.secretKeys;
  if (!keys) throw new BadRequest('secret_keys_missing', 'No secret key configured');
  const current = createSecretBox(keys.current);
  const old = keys.old ? createSecretBox(keys.old) : undefined;
  const plan = planSecretRotation(await ctx.actions.storedSecrets(), current, old);
  if (plan.unreadable.length > 0) {
    throw new BadRequest(
      'secret_unreadable',
      `${plan.unreadable.length} secret(s) open with neither SECRET_KEY nor OLD_SECRET_KEY ` +
        `(${plan.unreadable.slice(0, 5).join(', ')}); nothing was changed. ` +
        'Set OLD_SECRET_KEY to the previous key.',
    );
  }
  await ctx.actions.replaceSecrets(plan.reencrypted);
  const changes = { reencrypted: plan.reencrypted.size, already_current: plan.alreadyCurrent };
  await ctx.actions.recordAction({
    action: 'rotate-secret-key',
    targetUserId: null,
    changes,
    createdAt: ctx.clock.now(),
  });
  ctx.deps.log.info({ action: 'rotate-secret-key', changes }, 'admin action');
  return `Re-encrypted ${plan.reencrypted.size} secret(s) under the current key; ${plan.alreadyCurrent} already current`;
}

/** A support correction: an `adjustment` row naming the reason (negative debits). */
async function credit(
  ctx: AdminContext,
  email: string,
  amountText: string,
  reason: string,
  requestId: string | undefined,
): Promise<string> {
  const user = await ctx.users.findUserByEmail(email);
  if (!user) throw new NotFound(`No user with e-mail ${email}`);
  const amount = new Decimal(amountText);
  const entry = {
    userId: user.id,
    type: 'adjustment' as const,
    amount: amount.abs(),
    businessKey: `adjustment:${requestId ?? randomUUID()}`,
    note: reason,
  };
  // The balance move and its audit row commit together.
  const receipt = await ctx.ledger.transaction(async (ops, tx) => {
    const moved = amount.isNegative()
      ? await ops.debit(entry, {
          insufficient: (held) =>
            new InsufficientBalance(
              `Refused: ${email} holds ${new Decimal(held).toFixed(8)}, less than ${amount.abs().toFixed(8)}`,
            ),
        })
      : await ops.credit(entry, 'credit');
    if (moved.applied) {
      await record(ctx, createAdminRepository(tx), 'credit', user.id, {
        amount: amount.toFixed(8),
        reason,
        transaction_id: moved.transaction.id,
        balance: moved.balance,
      });
    }
    return moved;
  });
  const row = receipt.transaction;
  if (!receipt.applied) {
    return `Request ${requestId} was already applied as ledger row ${row.id}; nothing changed`;
  }
  const verb = amount.isNegative() ? 'Debited' : 'Credited';
  return `${verb} ${amount.abs().toFixed(8)} ${amount.isNegative() ? 'from' : 'to'} ${email} (user ${user.id}): balance ${new Decimal(receipt.balance).toFixed(8)}, ledger row ${row.id}`;
}

/** Throws (non-zero exit) listing the users whose balance differs from their ledger. */
async function ledgerCheck(ctx: AdminContext): Promise<string> {
  const result = await checkLedger(ctx.deps.db);
  if (result.mismatches.length > 0) {
    throw new BadRequest(
      'ledger_mismatch',
      [
        `Ledger check failed: ${result.mismatches.length} user(s) differ from their ledger`,
        ...result.mismatches.map(describeMismatch),
      ].join('\n'),
    );
  }
  return `Ledger clean: ${result.users} user(s), ${result.rows} ledger row(s)`;
}

export function createAdminService(deps: AdminServiceDeps) {
  const users = userAccountsOn(deps.db);
  const ledger = createLedger({
    db: deps.db,
    clock: deps.clock,
    events: deps.events,
  });
  const actions = createAdminRepository(deps.db);
  // A change and its audit row are written in one transaction.
  const writes = unitOfWork(deps.db, (tx) => ({
    users: userAccountsOn(tx),
    actions: createAdminRepository(tx),
  }));
  const { clock } = deps;
  const newUserHook = experienceAccountForNewUsers(clock);

  const ctx: AdminContext = { deps, users, ledger, actions, writes, clock, newUserHook };

  return {
    /** Runs one command and answers a one-line result; bad input throws ValidationFailed. */
    async run(input: unknown): Promise<string> {
      const parsed = adminCommand.safeParse(input);
      if (!parsed.success) {
        const fields: Record<string, string[]> = {};
        for (const issue of parsed.error.issues) {
          const key = issue.path.join('.') || 'command';
          fields[key] = [...(fields[key] ?? []), issue.message];
        }
        const text = Object.entries(fields)
          .map(([k, v]) => `${k}: ${v.join(', ')}`)
          .join('; ');
        throw new ValidationFailed(fields, `Invalid command: ${text}`);
      }
      const command = parsed.data;
      switch (command.command) {
        case 'create-staff':
          return createStaff(ctx, command.email, command.password);
        case 'grant-vip':
          return grantVip(ctx, command.email, command.days);
        case 'rotate-secret-key':
          return rotateSecretKey(ctx);
        case 'credit':
          return credit(ctx, command.email, command.amount, command.reason, command['request-id']);
        case 'check-ledger':
          return ledgerCheck(ctx);
      }
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
