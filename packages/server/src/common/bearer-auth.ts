import { AUTH_MESSAGES } from '@quantsquare/contracts';
import type { FastifyRequest } from 'fastify';
import { Forbidden, Unauthorized } from './errors.js';

/** Who is calling: the user and the session their access token belongs to. */
export interface AuthContext {
  userId: number;
  sessionId: number;
}

/** Verifies an access token (the auth module's tokens service). */
export interface AccessTokenVerifier {
  authenticate(accessToken: string): Promise<AuthContext>;
}

/** Whether a user is staff (the auth module answers it from the users table). */
export type StaffCheck = (userId: number) => Promise<boolean>;

const bearerToken = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
};

/**
 * Bearer authentication for a route plugin, the one every route module uses.
 * - `preValidation` runs before body validation, so an anonymous call answers 401, not a field
 *   error; `requireAuth` then reads the verified context.
 * - `optionalAuth` lets visitors through (routes that anyone may read) but still refuses a
 *   present, invalid token with 401 so the client refreshes it; `currentUser` answers the
 *   context or undefined.
 * - `staffOnly` is `preValidation` plus the staff check (403 for other users).
 */
export function bearerAuthentication(tokens: AccessTokenVerifier, isStaff?: StaffCheck) {
  const authenticated = new WeakMap<FastifyRequest, AuthContext>();
  const preValidation = async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw new Unauthorized(AUTH_MESSAGES.notAuthenticated);
    authenticated.set(request, await tokens.authenticate(token));
  };
  return {
    preValidation,
    optionalAuth: async (request: FastifyRequest) => {
      const token = bearerToken(request);
      if (token) authenticated.set(request, await tokens.authenticate(token));
    },
    staffOnly: async (request: FastifyRequest) => {
      await preValidation(request);
      const context = authenticated.get(request);
      if (!isStaff) throw new Error('staffOnly needs a staff check');
      if (!context || !(await isStaff(context.userId))) throw new Forbidden();
    },
    requireAuth: (request: FastifyRequest): AuthContext => {
      const context = authenticated.get(request);
      if (!context) throw new Unauthorized(AUTH_MESSAGES.notAuthenticated);
      return context;
    },
    currentUser: (request: FastifyRequest): AuthContext | undefined => authenticated.get(request),
    security: [{ bearerAuth: [] }],
  };
}
export type BearerAuthentication = ReturnType<typeof bearerAuthentication>;
