import { z } from 'zod';
import {
  CODE_LENGTH,
  EMAIL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from './limits.js';

/** The largest id: ids are PostgreSQL `integer` columns. */
export const ID_MAX = 2_147_483_647;

/**
 * An id read from a path or a query string: a whole number from 1 to ID_MAX. Anything else
 * (2147483648, 1e309, -1, 1.5, text) is a field error, never a query the database refuses.
 */
export const idSchema = z.coerce
  .number()
  // One error per value: without abort, 1e20 would also fail the safe-integer check.
  .min(1, { abort: true })
  .max(ID_MAX, { abort: true })
  .int();

/** The `{id}` of a route path. */
export const idParams = z.object({ id: idSchema });

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH)
  .pipe(z.email({ message: 'Enter a valid e-mail address' }));

/** Digits with an optional leading +, 6 to 20 digits (international numbers). */
export const phoneSchema = z
  .string()
  .trim()
  .regex(/^\+?[0-9]{6,20}$/, { message: 'Enter a valid phone number' });

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, {
    message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  })
  .max(PASSWORD_MAX_LENGTH, {
    message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  });

/** A login password is checked against the stored hash, so only its size is bounded here. */
export const loginPasswordSchema = z
  .string()
  .min(1, { message: 'This field is required' })
  .max(PASSWORD_MAX_LENGTH, {
    message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  });

export const codeSchema = z
  .string()
  .trim()
  .regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), { message: `Code must be ${CODE_LENGTH} digits` });

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ results: z.array(item), count: z.number().int() });

/**
 * Money or a price in an answer: a decimal string in plain notation ("-12.5", "0.00000001"),
 * never a float, so no digit is lost on the way.
 */
export const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);
