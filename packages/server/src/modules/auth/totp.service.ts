import {
  AUTH_MESSAGES,
  ERROR_CODES,
  type MessageResponse,
  type TwoFactorEnableResponse,
} from '@quantsquare/contracts';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Clock } from '../../common/clock.js';
import { BadRequest, NotFound } from '../../common/errors.js';
import type { SecretBox } from '../../common/secret-box.js';
import type { UserRow } from '../../db/schema/index.js';
import type { AttemptGuard, ClientAddress } from './attempt-guard.js';
import type { AuthRepository } from './auth.repository.js';

const ISSUER = 'QuantSquare';
const PERIOD_SECONDS = 30;

/** TOTP (authenticator app) setup and checks. Seeds are stored encrypted; each time step is accepted once. */
export function createTotpService(deps: {
  repo: AuthRepository;
  clock: Clock;
  secretBox: SecretBox;
  /** Confirming 2FA setup and disabling it are counted and locked like a login. */
  guard: AttemptGuard;
}) {
  const { repo, clock, secretBox, guard } = deps;

  const invalidGoogleCode = () =>
    new BadRequest(ERROR_CODES.invalidGoogleCode, AUTH_MESSAGES.invalidGoogleCode);

  /** The matching time step of `code` (±1 step), or undefined. */
  async function matchStep(encryptedSecret: string, code: string, lastStep: number | null) {
    const result = await verify({
      secret: secretBox.decrypt(encryptedSecret),
      token: code,
      epoch: Math.floor(clock.now().getTime() / 1000),
      epochTolerance: PERIOD_SECONDS,
      ...(lastStep !== null ? { afterTimeStep: lastStep } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  }

  async function loadUser(userId: number): Promise<UserRow> {
    const user = await repo.findUserById(userId);
    if (!user) throw new NotFound('User not found');
    return user;
  }

  return {
    /** Checks the Google code of a login; a used or wrong code throws 'Invalid Google authentication code'. */
    async checkLoginCode(user: UserRow, code: string): Promise<void> {
      if (!user.totpSecret) throw invalidGoogleCode();
      const step = await matchStep(user.totpSecret, code, user.totpLastStep);
      if (step === undefined || !(await repo.claimTotpStep(user.id, step)))
        throw invalidGoogleCode();
    },

    async enable(userId: number): Promise<TwoFactorEnableResponse> {
      const user = await loadUser(userId);
      if (user.twoFactorEnabled) {
        throw new BadRequest(
          ERROR_CODES.twoFactorAlreadyEnabled,
          AUTH_MESSAGES.twoFactorAlreadyEnabled,
        );
      }
      const secret = generateSecret();
      await repo.updateUser(user.id, { totpPendingSecret: secretBox.encrypt(secret) });
      const otpauthUrl = generateURI({ issuer: ISSUER, label: user.username, secret });
      return { qr_code: await QRCode.toDataURL(otpauthUrl), secret, otpauth_url: otpauthUrl };
    },

    /** Confirms setup with a code of the new seed; counted and locked like a login. */
    async verify(userId: number, code: string, address: ClientAddress): Promise<MessageResponse> {
      const user = await loadUser(userId);
      const pendingSecret = user.totpPendingSecret;
      if (!pendingSecret) {
        throw new BadRequest(ERROR_CODES.twoFactorNotPending, AUTH_MESSAGES.twoFactorNotPending);
      }
      // Counted before the check: six digits are not to be run through, whoever holds the token.
      await guard.guarded(user.id, address, async () => {
        const step = await matchStep(pendingSecret, code, user.totpLastStep);
        const claimed =
          step !== undefined &&
          (await repo.claimTotpStep(user.id, step, {
            twoFactorEnabled: true,
            totpSecret: pendingSecret,
            totpPendingSecret: null,
          }));
        if (!claimed) throw invalidGoogleCode();
      });
      return { success: true, message: 'Two-factor authentication enabled' };
    },

    async disable(userId: number, code: string, address: ClientAddress): Promise<MessageResponse> {
      const user = await loadUser(userId);
      if (!user.twoFactorEnabled || !user.totpSecret) {
        throw new BadRequest(ERROR_CODES.twoFactorNotEnabled, AUTH_MESSAGES.twoFactorNotEnabled);
      }
      const secret = user.totpSecret;
      // Counted before the check: a stolen access token cannot run through the codes.
      await guard.guarded(user.id, address, async () => {
        const step = await matchStep(secret, code, user.totpLastStep);
        const claimed =
          step !== undefined &&
          (await repo.claimTotpStep(user.id, step, {
            twoFactorEnabled: false,
            totpSecret: null,
            totpPendingSecret: null,
          }));
        if (!claimed) throw invalidGoogleCode();
      });
      return { success: true, message: 'Two-factor authentication disabled' };
    },
  };
}

export type TotpService = ReturnType<typeof createTotpService>;
