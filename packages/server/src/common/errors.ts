import { ERROR_CODES, FIELD_ERROR_CODES } from '@quantsquare/contracts';

/** Messages per field (the answer's `fields`). */
export type FieldErrors = Record<string, string[]>;
/** Machine codes per field (the answer's `field_codes`, contracts FIELD_ERROR_CODES). */
export type FieldCodes = Record<string, string[]>;

export interface ErrorExtras {
  needs_google_auth?: boolean;
  redirect_to?: string;
  retry_after?: number;
  /** The '已存在' answer of a second bot on one account and symbol (contracts botExistsError). */
  success?: false;
  details?: string;
  suggestion?: string;
  existing_bot?: { id: number; status: 'created' | 'stopped' | 'running' | 'error' };
  /** The kind of the exchange failure behind the error (contracts EXCHANGE_ERROR_KINDS). */
  error_kind?: string;
  /** An exchange API's running bots, when deleting it is refused. */
  running_bots?: { id: number; symbol: string }[];
  /** An exchange API's symbols still holding a position or an order, when deleting it is refused. */
  open_symbols?: string[];
}

/** A domain error: services throw these, the one error handler turns them into HTTP answers. */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldErrors,
    readonly extras: ErrorExtras = {},
    /** Codes per field; a field without one answers `invalid`. */
    readonly fieldCodes?: FieldCodes,
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
  constructor(fields: FieldErrors, message = 'Validation failed', codes?: FieldCodes) {
    super(400, ERROR_CODES.validation, message, fields, {}, codes);
  }
  static field(
    field: string,
    message: string,
    code: string = FIELD_ERROR_CODES.invalid,
  ): ValidationFailed {
    return new ValidationFailed({ [field]: [message] }, message, { [field]: [code] });
  }
}

/**
 * Collects field errors with their codes; `failure()` is the ValidationFailed to throw. Kept in
 * objects without a prototype: a client's key such as `__proto__`, `constructor` or `toString`
 * is a field like any other, never a built-in.
 */
export class FieldErrorList {
  readonly fields: FieldErrors = Object.create(null);
  readonly codes: FieldCodes = Object.create(null);

  /** Adds a message (once per field) with its code. */
  add(field: string, message: string, code: string = FIELD_ERROR_CODES.invalid): this {
    const messages = Object.hasOwn(this.fields, field) ? (this.fields[field] as string[]) : [];
    const codes = Object.hasOwn(this.codes, field) ? (this.codes[field] as string[]) : [];
    if (!messages.includes(message)) {
      messages.push(message);
      codes.push(code);
    }
    this.fields[field] = messages;
    this.codes[field] = codes;
    return this;
  }
  has(field: string): boolean {
    return Object.hasOwn(this.fields, field);
  }
  get isEmpty(): boolean {
    return Object.keys(this.fields).length === 0;
  }
  /** The first field's first message, as the spec's one-line display shows it. */
  get firstMessage(): string {
    return Object.values(this.fields)[0]?.[0] ?? 'Validation failed';
  }
  failure(message: string = this.firstMessage): ValidationFailed {
    return new ValidationFailed(this.fields, message, this.codes);
  }
}
export class Unauthorized extends DomainError {
  constructor(message: string, code: string = ERROR_CODES.unauthorized) {
    super(401, code, message);
  }
}

export class Forbidden extends DomainError {
  constructor(
    message = 'You do not have permission to do this',
    code: string = ERROR_CODES.forbidden,
  ) {
    super(403, code, message);
  }
}

/** A VIP feature asked for without an active VIP: 403 with its own code. */
export class VipRequired extends DomainError {
  constructor(message: string, code: string = ERROR_CODES.vipRequired) {
    super(403, code, message);
  }
}

export class NotFound extends DomainError {
  constructor(message = 'Not found', code: string = ERROR_CODES.notFound) {
    super(404, code, message);
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
