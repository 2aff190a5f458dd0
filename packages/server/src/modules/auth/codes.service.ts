import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  AUTH_MESSAGES,
  CODE_COOLDOWN_SECONDS,
  CODE_DAILY_LIMIT,
  CODE_LENGTH,
  CODE_MAX_ATTEMPTS,
  CODE_TTL_SECONDS,
  ERROR_CODES,
  FIELD_ERROR_CODES,
  type SendCodeRequest,
  type SendCodeResponse,
} from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import { BadRequest, RateLimited, ValidationFailed } from '../../common/errors.js';
import { deriveKey } from '../../common/keys.js';
import { DEFAULT_MESSAGE_LANGUAGE, type MessageLanguage } from '../../common/message-language.js';
import type { Mailer, SmsProvider } from '../../delivery/delivery.adapters.js';
import type { AuthRepository, CodeAction, CodeChannel } from './auth.repository.js';
import { parseEmail, parsePhone } from './identity.parser.js';

const DAY_SECONDS = 24 * 60 * 60;

export interface CodeLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** The code's e-mail/SMS in the reader's language. */
function codeMessage(language: MessageLanguage, isReset: boolean, code: string) {
  const minutes = Math.round(CODE_TTL_SECONDS / 60);
  if (language === 'zh-CN') {
    const what = isReset ? '重置密码验证码' : '验证码';
    return {
      emailSubject: `QuantSquare ${what}`,
      smsSubject: `QuantSquare ${what}`,
      text: `您的 QuantSquare ${what}是 ${code}，${minutes} 分钟内有效。${
        isReset ? '如果您没有申请重置密码，请忽略本消息。' : '请勿告诉他人。'
      }`,
    };
  }
  const what = isReset ? 'password reset code' : 'verification code';
  return {
    emailSubject: `Your QuantSquare ${what}`,
    smsSubject: `QuantSquare ${what}`,
    text: `Your QuantSquare ${what} is ${code}. It expires in ${minutes} minutes.${
      isReset ? ' If you did not ask to reset your password, ignore this message.' : ''
    }`,
  };
}

/** The cooldown between two codes to one address, and the daily limit. */
async function enforceSendLimits(
  repo: AuthRepository,
  cooldownSeconds: number,
  channel: CodeChannel,
  target: string,
  now: Date,
): Promise<void> {
  const latest = await repo.latestCodeForTarget(channel, target);
  if (latest) {
    const elapsed = (now.getTime() - latest.createdAt.getTime()) / 1000;
    if (elapsed < cooldownSeconds) {
      const wait = Math.ceil(cooldownSeconds - elapsed);
      throw new RateLimited(
        `Please wait ${wait} seconds before requesting another code`,
        wait,
        ERROR_CODES.codeCooldown,
      );
    }
  }
  // Daily limit over a rolling 24 h window (not a calendar day): no burst at midnight.
  const since = new Date(now.getTime() - DAY_SECONDS * 1000);
  const { n, oldest } = await repo.codesSince(channel, target, since);
  if (n >= CODE_DAILY_LIMIT) {
    const wait = oldest
      ? (oldest.getTime() + DAY_SECONDS * 1000 - now.getTime()) / 1000
      : DAY_SECONDS;
    throw new RateLimited(
      `Daily limit of ${CODE_DAILY_LIMIT} codes reached for this target, try again later`,
      wait,
      ERROR_CODES.codeDailyLimit,
    );
  }
}

/** Whether the target belongs to an account; refuses the send when the action says so. */
async function checkRegistration(
  repo: AuthRepository,
  channel: CodeChannel,
  target: string,
  action: CodeAction,
): Promise<boolean> {
  const user =
    channel === 'email' ? await repo.findUserByEmail(target) : await repo.findUserByPhone(target);
  if (action === 'login' && !user) {
    throw new BadRequest(
      channel === 'email' ? ERROR_CODES.notRegistered : ERROR_CODES.phoneNotRegistered,
      channel === 'email' ? AUTH_MESSAGES.emailNotRegistered : AUTH_MESSAGES.userNotFound,
      { redirect_to: 'register' },
    );
  }
  if (action === 'register' && user) {
    throw new BadRequest(
      channel === 'email' ? ERROR_CODES.alreadyRegistered : ERROR_CODES.phoneAlreadyRegistered,
      channel === 'email'
        ? AUTH_MESSAGES.emailAlreadyRegistered
        : AUTH_MESSAGES.phoneAlreadyRegistered,
    );
  }
  return user !== undefined;
}

/** The code, by e-mail or SMS, in the reader's language. */
async function deliver(
  senders: { mailer: Mailer; smsProvider: SmsProvider },
  channel: CodeChannel,
  target: string,
  action: CodeAction,
  code: string,
  language: MessageLanguage,
) {
  const words = codeMessage(language, action === 'reset_password', code);
  if (channel === 'email') {
    await senders.mailer.send({ to: target, subject: words.emailSubject, text: words.text, code });
  } else {
    await senders.smsProvider.send({
      to: target,
      subject: words.smsSubject,
      text: words.text,
      code,
    });
  }
}

export function createCodesService(deps: {
  repo: AuthRepository;
  clock: Clock;
  secretKey: string;
  mailer: Mailer;
  smsProvider: SmsProvider;
  log: CodeLogger;
  /** Seconds between two codes to one address (default the spec's CODE_COOLDOWN_SECONDS). */
  cooldownSeconds?: number;
}) {
  const { repo, clock } = deps;
  const cooldownSeconds = deps.cooldownSeconds ?? CODE_COOLDOWN_SECONDS;
  const hmacKey = deriveKey(deps.secretKey, 'verification-code-v1');

  // The hash binds the code to where and why it was sent: a code for one purpose never opens another.
  const hashCode = (channel: CodeChannel, target: string, action: CodeAction, code: string) =>
    createHmac('sha256', hmacKey).update(`${channel}\n${target}\n${action}\n${code}`).digest('hex');

  return {
    /** Sends a code, written in `language` (the reader's, from the request). */
    async send(
      request: SendCodeRequest,
      language: MessageLanguage = DEFAULT_MESSAGE_LANGUAGE,
    ): Promise<SendCodeResponse> {
      const channel = request.type;
      const parsed = channel === 'email' ? parseEmail(request.target) : parsePhone(request.target);
      if (!parsed.ok) {
        throw ValidationFailed.field(
          'target',
          parsed.message,
          channel === 'email' ? FIELD_ERROR_CODES.invalidEmail : FIELD_ERROR_CODES.invalidPhone,
        );
      }
      const target = parsed.value;
      const now = clock.now();

      const isRegistered = await checkRegistration(repo, channel, target, request.action);
      // A reset code for an unknown target is answered, counted and limited exactly like one for
      // an account, but never sent: the answer does not tell whether the account exists.
      const sendsCode = isRegistered || request.action !== 'reset_password';
      await enforceSendLimits(repo, cooldownSeconds, channel, target, now);

      const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
      await repo.supersedeCodes(channel, target, request.action, now);
      const row = await repo.insertCode({
        channel,
        target,
        action: request.action,
        codeHash: hashCode(channel, target, request.action, code),
        createdAt: now,
        expiresAt: new Date(now.getTime() + CODE_TTL_SECONDS * 1000),
      });
      try {
        if (sendsCode) await deliver(deps, channel, target, request.action, code, language);
      } catch (error) {
        // A code that never arrived must not count toward the cooldown or the daily limit.
        await repo.deleteCode(row.id);
        deps.log.warn({ err: error, channel, to: target }, 'code delivery failed');
        throw new BadRequest(ERROR_CODES.sendFailed, AUTH_MESSAGES.sendFailed);
      }
      return {
        success: true,
        message:
          channel === 'email'
            ? 'Verification code sent to your e-mail'
            : 'Verification code sent by SMS',
        cooldown_seconds: cooldownSeconds,
        expires_in_seconds: CODE_TTL_SECONDS,
      };
    },

    /**
     * Checks a code without consuming it (a login may still ask for the Google code).
     * A wrong code counts an attempt; the CODE_MAX_ATTEMPTS-th wrong try burns the code.
     * Answers the code id to consume later, or undefined when it does not match.
     */
    async check(
      channel: CodeChannel,
      target: string,
      action: CodeAction,
      code: string,
    ): Promise<number | undefined> {
      const now = clock.now();
      const active = await repo.activeCode(channel, target, action);
      if (!active || active.expiresAt <= now || active.attempts >= CODE_MAX_ATTEMPTS)
        return undefined;
      const expected = Buffer.from(active.codeHash, 'hex');
      const given = Buffer.from(hashCode(channel, target, action, code), 'hex');
      if (!timingSafeEqual(expected, given)) {
        await repo.countCodeAttempt(active.id);
        if (active.attempts + 1 >= CODE_MAX_ATTEMPTS) await repo.consumeCode(active.id, now);
        return undefined;
      }
      return active.id;
    },

    /**
     * A valid code used with a wrong password: it counts as a wrong try of the code, so a code
     * cannot carry a password guessing run (the CODE_MAX_ATTEMPTS-th burns it).
     */
    async countMisuse(codeId: number): Promise<void> {
      if ((await repo.countCodeAttempt(codeId)) >= CODE_MAX_ATTEMPTS) {
        await repo.consumeCode(codeId, clock.now());
      }
    },

    /** Single use: false when someone else consumed it first. */
    async consume(codeId: number): Promise<boolean> {
      return repo.consumeCode(codeId, clock.now());
    },
  };
}

export type CodesService = ReturnType<typeof createCodesService>;
