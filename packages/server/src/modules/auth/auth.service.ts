import {
  type AccountSecurity,
  AUTH_MESSAGES,
  type ChangePasswordRequest,
  ERROR_CODES,
  FIELD_ERROR_CODES,
  type LoginRequest,
  type LoginResponse,
  type MessageResponse,
  type PhoneLoginRequest,
  type PhoneRegisterRequest,
  type Profile,
  type ProfileUpdateRequest,
  type RegisterRequest,
  type RegisterResponse,
  type ResetPasswordRequest,
} from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import type { CoinBalanceReader } from '../../common/coin-balances.js';
import { BadRequest, FieldErrorList, NotFound, ValidationFailed } from '../../common/errors.js';
import type { UserRow } from '../../db/schema/index.js';
import type { AttemptGuard, ClientAddress } from './attempt-guard.js';
import { toAccountSecurity, toAuthUser, toProfile } from './auth.mappers.js';
import type { AuthRepository } from './auth.repository.js';
import type { CodesService } from './codes.service.js';
import { parseEmail, parsePhone } from './identity.parser.js';
import { hashPassword, verifyPassword } from './password.hasher.js';
import { checkNewPassword, type PasswordOwner } from './password.policy.js';
import type { AuthContext, TokensService } from './tokens.service.js';
import type { TotpService } from './totp.service.js';
import { createUserAccount, type NewUserHook } from './user-accounts.service.js';

/**
 * What the auth module needs from the profile module to apply PUT /auth/profile/ with the same
 * rules (the composition root passes the profile service).
 */
export interface ProfileEditor {
  applyUpdate(userId: number, request: ProfileUpdateRequest): Promise<UserRow>;
}

/**
 * The shared end of both logins, once the e-mail/SMS code was valid (and, for e-mail, the
 * password right): the 2FA demand, then the code is used up and a session opens.
 */
async function finishLogin(
  deps: Pick<AuthServiceDeps, 'clock' | 'codes' | 'tokens' | 'totp' | 'balances'>,
  user: UserRow,
  codeId: number,
  googleCode: string | undefined,
  invalidCode: () => BadRequest,
): Promise<LoginResponse> {
  const { clock, codes, tokens, totp, balances } = deps;
  if (user.twoFactorEnabled) {
    // The e-mail/SMS code is not consumed here: the retry with the Google code reuses it.
    if (!googleCode) {
      throw new BadRequest(ERROR_CODES.googleCodeRequired, AUTH_MESSAGES.googleCodeRequired, {
        needs_google_auth: true,
      });
    }
    await totp.checkLoginCode(user, googleCode);
  }
  if (!(await codes.consume(codeId))) throw invalidCode();
  const pair = await tokens.startSession(user.id);
  return { ...pair, user: toAuthUser(user, await balances.balanceOf(user.id), clock.now()) };
}

/** The inviter of an invitation code (a field error when there is none). */
async function invitationFields(
  repo: AuthRepository,
  code: string | undefined,
  errors: FieldErrorList,
): Promise<number | null> {
  if (!code) return null;
  const inviter = await repo.findUserByInvitationCode(code.toUpperCase());
  if (!inviter) {
    errors.add(
      'invitation_code',
      AUTH_MESSAGES.invalidInvitationCode,
      FIELD_ERROR_CODES.invalidInvitationCode,
    );
  }
  return inviter?.id ?? null;
}

/** A new password and its confirmation: the rules of password.policy, then the match. */
function passwordFields(
  request: { password: string; password2: string },
  owner: PasswordOwner,
): FieldErrorList {
  const errors = new FieldErrorList();
  checkNewPassword(request.password, owner, 'password', errors);
  if (request.password !== request.password2) {
    errors.add('password2', AUTH_MESSAGES.passwordMismatch, FIELD_ERROR_CODES.passwordMismatch);
  }
  return errors;
}

/** A new user's first session. */
async function registered(
  deps: Pick<AuthServiceDeps, 'clock' | 'tokens' | 'balances'>,
  user: UserRow,
): Promise<RegisterResponse> {
  const { clock, tokens, balances } = deps;
  const pair = await tokens.startSession(user.id);
  return {
    ...pair,
    user: toAuthUser(user, await balances.balanceOf(user.id), clock.now()),
    auto_login: true,
    message: 'Registration successful',
  };
}

async function loadUser(repo: AuthRepository, userId: number): Promise<UserRow> {
  const user = await repo.findUserById(userId);
  if (!user) throw new NotFound(AUTH_MESSAGES.userNotFound, ERROR_CODES.userNotFound);
  return user;
}

/** What the auth service works with. */
export interface AuthServiceDeps {
  repo: AuthRepository;
  clock: Clock;
  codes: CodesService;
  tokens: TokensService;
  totp: TotpService;
  /** The profile module's rules for nickname, bio and avatar_url (PUT /auth/profile/). */
  profileEditor: ProfileEditor;
  guard: AttemptGuard;
  /** The wallet's coin balances, shown in the user's answers. */
  balances: CoinBalanceReader;
  /** Created with every registered user, in the same transaction (the experience account). */
  withNewUser?: NewUserHook;
}

/** Logging in and registering, by e-mail or phone. */
function signInFlows(deps: AuthServiceDeps) {
  const { repo, clock, codes, guard } = deps;

  return {
    /**
     * The e-mail code is checked first: only a valid code reaches the password check, so the
     * answers never tell a right password from a wrong one without the mailbox. Every attempt
     * on an existing account counts toward its lock before any check runs.
     */
    async login(request: LoginRequest, address: ClientAddress): Promise<LoginResponse> {
      if (!request.email_code) {
        throw new BadRequest(ERROR_CODES.codeRequired, AUTH_MESSAGES.emailCodeRequired);
      }
      const emailCode = request.email_code;
      const invalidCode = () =>
        new BadRequest(ERROR_CODES.invalidEmailCode, AUTH_MESSAGES.invalidEmailCode);
      const user = await repo.findUserByEmail(request.email);
      // No code is ever sent to an unregistered address: the same answer as a wrong code.
      if (!user) throw invalidCode();
      return guard.guarded(user.id, address, async () => {
        const codeId = await codes.check('email', request.email, 'login', emailCode);
        if (codeId === undefined) throw invalidCode();
        if (!(await verifyPassword(user.passwordHash, request.password))) {
          // A wrong password wears the code out like a wrong code does.
          await codes.countMisuse(codeId);
          throw new BadRequest(ERROR_CODES.invalidCredentials, AUTH_MESSAGES.invalidCredentials);
        }
        return finishLogin(deps, user, codeId, request.google_code, invalidCode);
      });
    },

    async phoneLogin(request: PhoneLoginRequest, address: ClientAddress): Promise<LoginResponse> {
      const user = await repo.findUserByPhone(request.phone);
      if (!user) {
        throw new BadRequest(ERROR_CODES.phoneNotRegistered, AUTH_MESSAGES.userNotFound, {
          redirect_to: 'register',
        });
      }
      const invalidCode = () => new BadRequest(ERROR_CODES.invalidCode, AUTH_MESSAGES.invalidCode);
      return guard.guarded(user.id, address, async () => {
        const codeId = await codes.check('phone', request.phone, 'login', request.code);
        if (codeId === undefined) throw invalidCode();
        return finishLogin(deps, user, codeId, request.google_code, invalidCode);
      });
    },

    async register(request: RegisterRequest): Promise<RegisterResponse> {
      const errors = passwordFields(request, { email: request.email, phone: null });
      if (await repo.findUserByEmail(request.email)) {
        errors.add('email', AUTH_MESSAGES.emailAlreadyRegistered, FIELD_ERROR_CODES.emailTaken);
      }
      const invitedById = await invitationFields(repo, request.invitation_code, errors);
      if (!errors.isEmpty) throw errors.failure();
      const user = await createUserAccount(repo, clock, {
        email: request.email,
        phone: null,
        password: request.password,
        invitedById,
        withUser: deps.withNewUser,
      });
      return registered(deps, user);
    },

    async phoneRegister(request: PhoneRegisterRequest): Promise<RegisterResponse> {
      const errors = passwordFields(request, { email: null, phone: request.phone });
      if (await repo.findUserByPhone(request.phone)) {
        errors.add('phone', AUTH_MESSAGES.phoneAlreadyRegistered, FIELD_ERROR_CODES.phoneTaken);
      }
      const invitedById = await invitationFields(repo, request.invitation_code, errors);
      const codeId = errors.has('phone')
        ? undefined
        : await codes.check('phone', request.phone, 'register', request.code);
      if (codeId === undefined && !errors.has('phone')) {
        errors.add('code', AUTH_MESSAGES.invalidCode, FIELD_ERROR_CODES.invalidCode);
      }
      if (!errors.isEmpty || codeId === undefined) throw errors.failure();
      if (!(await codes.consume(codeId))) {
        throw ValidationFailed.field(
          'code',
          AUTH_MESSAGES.invalidCode,
          FIELD_ERROR_CODES.invalidCode,
        );
      }
      const user = await createUserAccount(repo, clock, {
        email: null,
        phone: request.phone,
        password: request.password,
        invitedById,
        withUser: deps.withNewUser,
      });
      return registered(deps, user);
    },
  };
}

/** The signed-in user's own account: security, profile, password reset and change. */
function accountFlows(deps: AuthServiceDeps) {
  const { repo, clock, codes, guard } = deps;

  return {
    async accountSecurity(auth: AuthContext): Promise<AccountSecurity> {
      return toAccountSecurity(await loadUser(repo, auth.userId));
    },

    async profile(auth: AuthContext): Promise<Profile> {
      const user = await loadUser(repo, auth.userId);
      return toProfile(user, await deps.balances.balanceOf(user.id), clock.now());
    },

    async updateProfile(auth: AuthContext, request: ProfileUpdateRequest): Promise<Profile> {
      const user = await deps.profileEditor.applyUpdate(auth.userId, request);
      return toProfile(user, await deps.balances.balanceOf(user.id), clock.now());
    },

    /**
     * A forgotten password, proved by a `reset_password` code: sets the new one and ends every
     * session of the account. An unknown target answers as a wrong code does (no code was ever
     * sent to it), and both are counted per target and address like a login.
     */
    async resetPassword(
      request: ResetPasswordRequest,
      address: ClientAddress,
    ): Promise<MessageResponse> {
      const parsed =
        request.type === 'email' ? parseEmail(request.target) : parsePhone(request.target);
      if (!parsed.ok) {
        throw ValidationFailed.field(
          'target',
          parsed.message,
          request.type === 'email'
            ? FIELD_ERROR_CODES.invalidEmail
            : FIELD_ERROR_CODES.invalidPhone,
        );
      }
      const target = parsed.value;
      const asTarget =
        request.type === 'email' ? { email: target, phone: null } : { email: null, phone: target };
      // Only what the client sent is compared before the code is proved: nothing here may depend
      // on whether the account exists.
      const errors = passwordFields(request, asTarget);
      if (!errors.isEmpty) throw errors.failure();
      const invalidCode = () =>
        ValidationFailed.field('code', AUTH_MESSAGES.invalidCode, FIELD_ERROR_CODES.invalidCode);
      const user =
        request.type === 'email'
          ? await repo.findUserByEmail(target)
          : await repo.findUserByPhone(target);
      const codeId = await guard.guarded(`reset:${request.type}:${target}`, address, async () => {
        const id = await codes.check(request.type, target, 'reset_password', request.code);
        if (id === undefined || !user) throw invalidCode();
        return id;
      });
      if (!user) throw invalidCode();
      // The owner is proved now: the rules see the account's other identifier too.
      const ownRules = new FieldErrorList();
      checkNewPassword(request.password, user, 'password', ownRules);
      if (!ownRules.isEmpty) throw ownRules.failure();
      if (!(await codes.consume(codeId))) throw invalidCode();
      await repo.updateUser(user.id, { passwordHash: await hashPassword(request.password) });
      await repo.revokeAllSessions(user.id, clock.now(), 'password_reset');
      return { success: true, message: 'Password reset; sign in with the new password' };
    },

    /** A new password signs out every other session; the current one stays. */
    async changePassword(
      auth: AuthContext,
      request: ChangePasswordRequest,
      address: ClientAddress,
    ): Promise<MessageResponse> {
      const user = await loadUser(repo, auth.userId);
      const rules = new FieldErrorList();
      checkNewPassword(request.new_password, user, 'new_password', rules);
      if (!rules.isEmpty) throw rules.failure();
      // Counted and locked like a login: a stolen access token cannot guess the password.
      await guard.guarded(user.id, address, async () => {
        if (!(await verifyPassword(user.passwordHash, request.old_password))) {
          throw ValidationFailed.field(
            'old_password',
            AUTH_MESSAGES.invalidOldPassword,
            FIELD_ERROR_CODES.oldPasswordIncorrect,
          );
        }
      });
      await repo.updateUser(user.id, { passwordHash: await hashPassword(request.new_password) });
      await repo.revokeOtherSessions(user.id, auth.sessionId, clock.now(), 'password_changed');
      return { success: true, message: 'Password changed' };
    },
  };
}

export function createAuthService(deps: AuthServiceDeps) {
  return {
    ...signInFlows(deps),
    ...accountFlows(deps),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
