import {
  type AccountSecurity,
  AUTH_MESSAGES,
  type ChangePasswordRequest,
  ERROR_CODES,
  LOGIN_LOCK_SECONDS,
  LOGIN_MAX_FAILURES,
  type LoginRequest,
  type LoginResponse,
  type MessageResponse,
  type PhoneLoginRequest,
  type PhoneRegisterRequest,
  type Profile,
  type ProfileUpdateRequest,
  type RegisterRequest,
  type RegisterResponse,
} from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import {
  BadRequest,
  type FieldErrors,
  NotFound,
  RateLimited,
  ValidationFailed,
} from '../../common/errors.js';
import type { UserRow } from '../../db/schema/index.js';
import type { ProfileEditor } from '../profile/profile.service.js';
import { toAccountSecurity, toAuthUser, toProfile } from './auth.mappers.js';
import type { AuthRepository } from './auth.repository.js';
import type { CodesService } from './codes.service.js';
import { dummyHash, hashPassword, verifyPassword } from './password.hasher.js';
import type { AuthContext, TokensService } from './tokens.service.js';
import type { TotpService } from './totp.service.js';
import { createUserAccount } from './user-accounts.service.js';

export function createAuthService(deps: {
  repo: AuthRepository;
  clock: Clock;
  codes: CodesService;
  tokens: TokensService;
  totp: TotpService;
  /** The profile module's rules for nickname, bio and avatar_url (PUT /auth/profile/). */
  profileEditor: ProfileEditor;
}) {
  const { repo, clock, codes, tokens, totp } = deps;

  function assertNotLocked(user: UserRow): void {
    const now = clock.now();
    if (user.lockedUntil && user.lockedUntil > now) {
      const seconds = Math.ceil((user.lockedUntil.getTime() - now.getTime()) / 1000);
      throw new RateLimited(AUTH_MESSAGES.accountLocked, seconds, ERROR_CODES.accountLocked);
    }
  }

  /** LOGIN_MAX_FAILURES failures inside one LOGIN_LOCK_SECONDS window lock the account for that long. */
  async function recordFailure(user: UserRow): Promise<void> {
    await repo.recordLoginFailure(user.id, clock.now(), LOGIN_LOCK_SECONDS, LOGIN_MAX_FAILURES);
  }

  /** Runs a check; when it throws, the failure counts toward the account lock. */
  async function counted<T>(user: UserRow, check: () => Promise<T>): Promise<T> {
    try {
      return await check();
    } catch (error) {
      await recordFailure(user);
      throw error;
    }
  }

  /** The shared end of both logins: 2FA demand, then the code is used up and a session opens. */
  async function finishLogin(
    user: UserRow,
    codeId: number,
    googleCode: string | undefined,
    invalidCode: () => BadRequest,
  ): Promise<LoginResponse> {
    if (user.twoFactorEnabled) {
      // The e-mail/SMS code is not consumed here: the retry with the Google code reuses it.
      if (!googleCode) {
        throw new BadRequest(ERROR_CODES.googleCodeRequired, AUTH_MESSAGES.googleCodeRequired, {
          needs_google_auth: true,
        });
      }
      await counted(user, () => totp.checkLoginCode(user, googleCode));
    }
    if (!(await codes.consume(codeId))) throw invalidCode();
    if (user.failedLoginCount > 0 || user.lockedUntil) {
      await repo.updateUser(user.id, {
        failedLoginCount: 0,
        failedLoginWindowStart: null,
        lockedUntil: null,
      });
    }
    const pair = await tokens.startSession(user.id);
    const fresh = (await repo.findUserById(user.id)) ?? user;
    return { ...pair, user: toAuthUser(fresh, clock.now()) };
  }

  async function invitationFields(
    code: string | undefined,
    fields: FieldErrors,
  ): Promise<number | null> {
    if (!code) return null;
    const inviter = await repo.findUserByInvitationCode(code.toUpperCase());
    if (!inviter) fields.invitation_code = [AUTH_MESSAGES.invalidInvitationCode];
    return inviter?.id ?? null;
  }

  async function registered(user: UserRow): Promise<RegisterResponse> {
    const pair = await tokens.startSession(user.id);
    return {
      ...pair,
      user: toAuthUser(user, clock.now()),
      auto_login: true,
      message: 'Registration successful',
    };
  }

  async function loadUser(userId: number): Promise<UserRow> {
    const user = await repo.findUserById(userId);
    if (!user) throw new NotFound(AUTH_MESSAGES.userNotFound);
    return user;
  }

  return {
    async login(request: LoginRequest): Promise<LoginResponse> {
      const invalidCredentials = () =>
        new BadRequest(ERROR_CODES.invalidCredentials, AUTH_MESSAGES.invalidCredentials);
      const user = await repo.findUserByEmail(request.email);
      if (!user) {
        await verifyPassword(await dummyHash, request.password);
        throw invalidCredentials();
      }
      assertNotLocked(user);
      await counted(user, async () => {
        if (!(await verifyPassword(user.passwordHash, request.password)))
          throw invalidCredentials();
      });
      if (!request.email_code) {
        throw new BadRequest(ERROR_CODES.codeRequired, AUTH_MESSAGES.emailCodeRequired);
      }
      const invalidCode = () =>
        new BadRequest(ERROR_CODES.invalidCode, AUTH_MESSAGES.invalidEmailCode);
      const emailCode = request.email_code;
      const codeId = await counted(user, async () => {
        const id = await codes.check('email', request.email, 'login', emailCode);
        if (id === undefined) throw invalidCode();
        return id;
      });
      return finishLogin(user, codeId, request.google_code, invalidCode);
    },

    async phoneLogin(request: PhoneLoginRequest): Promise<LoginResponse> {
      const user = await repo.findUserByPhone(request.phone);
      if (!user) {
        throw new BadRequest(ERROR_CODES.notRegistered, AUTH_MESSAGES.userNotFound, {
          redirect_to: 'register',
        });
      }
      assertNotLocked(user);
      const invalidCode = () => new BadRequest(ERROR_CODES.invalidCode, AUTH_MESSAGES.invalidCode);
      const codeId = await counted(user, async () => {
        const id = await codes.check('phone', request.phone, 'login', request.code);
        if (id === undefined) throw invalidCode();
        return id;
      });
      return finishLogin(user, codeId, request.google_code, invalidCode);
    },

    async register(request: RegisterRequest): Promise<RegisterResponse> {
      const fields: FieldErrors = {};
      if (request.password !== request.password2)
        fields.password2 = [AUTH_MESSAGES.passwordMismatch];
      if (await repo.findUserByEmail(request.email))
        fields.email = [AUTH_MESSAGES.emailAlreadyRegistered];
      const invitedById = await invitationFields(request.invitation_code, fields);
      if (Object.keys(fields).length > 0) throw new ValidationFailed(fields, firstMessage(fields));
      const user = await createUserAccount(repo, clock, {
        email: request.email,
        phone: null,
        password: request.password,
        invitedById,
      });
      return registered(user);
    },

    async phoneRegister(request: PhoneRegisterRequest): Promise<RegisterResponse> {
      const fields: FieldErrors = {};
      if (request.password !== request.password2)
        fields.password2 = [AUTH_MESSAGES.passwordMismatch];
      if (await repo.findUserByPhone(request.phone))
        fields.phone = [AUTH_MESSAGES.phoneAlreadyRegistered];
      const invitedById = await invitationFields(request.invitation_code, fields);
      const codeId = fields.phone
        ? undefined
        : await codes.check('phone', request.phone, 'register', request.code);
      if (codeId === undefined && !fields.phone) fields.code = [AUTH_MESSAGES.invalidCode];
      if (Object.keys(fields).length > 0 || codeId === undefined) {
        throw new ValidationFailed(fields, firstMessage(fields));
      }
      if (!(await codes.consume(codeId)))
        throw ValidationFailed.field('code', AUTH_MESSAGES.invalidCode);
      const user = await createUserAccount(repo, clock, {
        email: null,
        phone: request.phone,
        password: request.password,
        invitedById,
      });
      return registered(user);
    },

    async accountSecurity(auth: AuthContext): Promise<AccountSecurity> {
      return toAccountSecurity(await loadUser(auth.userId));
    },

    async profile(auth: AuthContext): Promise<Profile> {
      return toProfile(await loadUser(auth.userId), clock.now());
    },

    async updateProfile(auth: AuthContext, request: ProfileUpdateRequest): Promise<Profile> {
      return toProfile(await deps.profileEditor.applyUpdate(auth.userId, request), clock.now());
    },

    /** A new password signs out every other session; the current one stays. */
    async changePassword(
      auth: AuthContext,
      request: ChangePasswordRequest,
    ): Promise<MessageResponse> {
      const user = await loadUser(auth.userId);
      if (!(await verifyPassword(user.passwordHash, request.old_password))) {
        throw ValidationFailed.field('old_password', AUTH_MESSAGES.invalidOldPassword);
      }
      await repo.updateUser(user.id, { passwordHash: await hashPassword(request.new_password) });
      await repo.revokeOtherSessions(user.id, auth.sessionId, clock.now(), 'password_changed');
      return { success: true, message: 'Password changed' };
    },
  };
}

function firstMessage(fields: FieldErrors): string {
  return Object.values(fields)[0]?.[0] ?? 'Validation failed';
}

export type AuthService = ReturnType<typeof createAuthService>;
