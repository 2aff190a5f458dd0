import { AUTH_MESSAGES } from '@quantsquare/contracts';
import type { FastifyRequest } from 'fastify';
import { Unauthorized } from '../../common/errors.js';
import type { AuthContext, TokensService } from '../auth/tokens.service.js';

/**
 * Bearer authentication for a route plugin: `preValidation` runs before body validation (an
 * anonymous call answers 401, not a field error), `requireAuth` reads the verified context.
 */
export function bearerAuthentication(tokens: TokensService) {
  const authenticated = new WeakMap<FastifyRequest, AuthContext>();
  return {
    preValidation: async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
      if (!match?.[1]) throw new Unauthorized(AUTH_MESSAGES.notAuthenticated);
      authenticated.set(request, await tokens.authenticate(match[1]));
    },
    requireAuth: (request: FastifyRequest): AuthContext => {
      const context = authenticated.get(request);
      if (!context) throw new Unauthorized(AUTH_MESSAGES.notAuthenticated);
      return context;
    },
    security: [{ bearerAuth: [] }],
  };
}
