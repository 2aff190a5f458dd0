import { randomUUID } from 'node:crypto';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTH_MESSAGES,
  ERROR_CODES,
  REFRESH_TOKEN_TTL_SECONDS,
  type TokenPair,
} from '@quantsquare/contracts';
import { jwtVerify, SignJWT } from 'jose';
import type { AuthContext } from '../../common/bearer-auth.js';
import type { Clock } from '../../common/clock.js';
import { Unauthorized } from '../../common/errors.js';
import type { AuthRepository } from './auth.repository.js';

export type { AuthContext };

type TokenType = 'access' | 'refresh';

interface Claims {
  userId: number;
  sessionId: number;
  jti: string | undefined;
}

const ISSUER = 'quantsquare';

/**
 * Access tokens (short) and refresh tokens (long) of one session row. The refresh token's jti
 * is the session's current one; using an older jti again means the token leaked, so the whole
 * session is revoked.
 */
export function createTokensService(deps: {
  repo: AuthRepository;
  clock: Clock;
  jwtSecret: string;
}) {
  const { repo, clock } = deps;
  const key = new TextEncoder().encode(deps.jwtSecret);
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  const sign = (
    type: TokenType,
    userId: number,
    sessionId: number,
    jti: string,
    ttlSeconds: number,
  ) => {
    const iat = nowSeconds();
    return new SignJWT({ typ: type, sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setSubject(String(userId))
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .sign(key);
  };

  async function verify(token: string, type: TokenType): Promise<Claims> {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: clock.now(),
      });
      const userId = Number(payload.sub);
      const sessionId = payload.sid;
      if (payload.typ !== type || !Number.isInteger(userId) || typeof sessionId !== 'number') {
        throw new Error('wrong token type');
      }
      return { userId, sessionId, jti: payload.jti };
    } catch {
      throw new Unauthorized(AUTH_MESSAGES.tokenInvalid, ERROR_CODES.tokenInvalid);
    }
  }

  async function pairFor(
    userId: number,
    sessionId: number,
    refreshJti: string,
  ): Promise<TokenPair> {
    return {
      access: await sign('access', userId, sessionId, randomUUID(), ACCESS_TOKEN_TTL_SECONDS),
      refresh: await sign('refresh', userId, sessionId, refreshJti, REFRESH_TOKEN_TTL_SECONDS),
    };
  }

  return {
    /** Opens a session (one per login) and answers its first token pair. */
    async startSession(userId: number): Promise<TokenPair> {
      const jti = randomUUID();
      const session = await repo.insertSession({ userId, currentJti: jti, createdAt: clock.now() });
      return pairFor(userId, session.id, jti);
    },

    async refresh(refreshToken: string): Promise<TokenPair> {
      const claims = await verify(refreshToken, 'refresh');
      const session = await repo.findSession(claims.sessionId);
      if (!session || session.revokedAt || session.userId !== claims.userId || !claims.jti) {
        throw new Unauthorized(AUTH_MESSAGES.tokenInvalid, ERROR_CODES.tokenInvalid);
      }
      const next = randomUUID();
      const rotated = await repo.rotateSession(session.id, claims.jti, next, clock.now());
      if (!rotated) {
        await repo.revokeSession(session.id, clock.now(), 'refresh_reuse');
        throw new Unauthorized(AUTH_MESSAGES.refreshReused, ERROR_CODES.refreshReused);
      }
      return pairFor(claims.userId, session.id, next);
    },

    /** Ends the session the refresh token belongs to (any of its token ids). */
    async logout(refreshToken: string): Promise<void> {
      const claims = await verify(refreshToken, 'refresh');
      const session = await repo.findSession(claims.sessionId);
      if (!session || session.userId !== claims.userId) {
        throw new Unauthorized(AUTH_MESSAGES.tokenInvalid, ERROR_CODES.tokenInvalid);
      }
      await repo.revokeSession(session.id, clock.now(), 'logout');
    },

    /** Checks a Bearer access token and that its session is still live (one lookup by key). */
    async authenticate(accessToken: string): Promise<AuthContext> {
      const claims = await verify(accessToken, 'access');
      const session = await repo.findSession(claims.sessionId);
      if (!session || session.revokedAt || session.userId !== claims.userId) {
        throw new Unauthorized(AUTH_MESSAGES.tokenInvalid, ERROR_CODES.tokenInvalid);
      }
      return { userId: claims.userId, sessionId: claims.sessionId };
    },
  };
}

export type TokensService = ReturnType<typeof createTokensService>;
