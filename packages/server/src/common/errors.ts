import { ERROR_CODES } from '@quantsquare/contracts';

export type FieldErrors = Record<string, string[]>;

export interface ErrorExtras {
  needs_google_auth?: boolean;
  redirect_to?: string;
  retry_after?: number;
  /** The '已存在' answer of a second bot on one account and symbol (contracts botExistsError). */
  success?: false;
  details?: string;
  suggestion?: string;
  existing_bot?: { id: number; status: 'created' | 'stopped' | 'running' | 'error' };
}

/** A domain error: services throw these, the one error handler turns them into HTTP answers. */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldErrors,
    readonly extras: ErrorExtras = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request is understood but breaks a rule (answers 400). */
export class BadRequest extends DomainError {
  constructor(code: string, message: string, extras: ErrorExtras = {}) {
    super(400, code, message, undefined, extras);
  }
}

export class ValidationFailed extends DomainError {
  constructor(fields: FieldErrors, message = 'Validation failed') {
    super(400, ERROR_CODES.validation, message, fields);
  }
  static field(field: string, message: string): ValidationFailed {
    return new ValidationFailed({ [field]: [message] }, message);
  }
}

export class Unauthorized extends DomainError {
  constructor(message: string) {
    super(401, ERROR_CODES.unauthorized, message);
  }
}

export class Forbidden extends DomainError {
  constructor(message = 'You do not have permission to do this') {
    super(403, ERROR_CODES.forbidden, message);
  }
}

export class NotFound extends DomainError {
  constructor(message = 'Not found') {
    super(404, ERROR_CODES.notFound, message);
  }
}

export class Conflict extends DomainError {
  constructor(message: string, code: string = ERROR_CODES.conflict) {
    super(409, code, message);
  }
}

export class RateLimited extends DomainError {
  constructor(message: string, retryAfterSeconds: number, code: string = ERROR_CODES.rateLimited) {
    super(429, code, message, undefined, {
      retry_after: Math.max(1, Math.ceil(retryAfterSeconds)),
    });
  }
}

/** A balance would go below zero (answers 400 `insufficient_balance`). */
export class InsufficientBalance extends DomainError {
  constructor(message = 'Insufficient balance') {
    super(400, 'insufficient_balance', message);
  }
}
