import { z } from 'zod';
import {
  SHARE_DESCRIPTION_MAX_HTML_LENGTH,
  SQUARE_MESSAGES,
  STRATEGY_NAME_MAX_LENGTH,
} from './constants.js';

// The share settings of an exchange account (document 1 §3 Share settings, §4 Share toggle).

// ---- share settings (document 1) -------------------------------------------------------------

/** GET /strategy-square/accounts/{id}/check-share-status/ */
export const shareStatusResponse = z.object({
  has_share_settings: z.boolean(),
  is_public: z.boolean(),
  updated_at: z.string().nullable(),
});
export type ShareStatusResponse = z.infer<typeof shareStatusResponse>;

/**
 * GET/PUT /strategy-square/accounts/{id}/share-settings/ (owner only; 404 for anyone else).
 * Before the first PUT, GET answers the defaults with `updated_at: null`.
 */
export const shareSettings = z.object({
  account_id: z.number().int(),
  /** The strategy's name on the square; the account's name until the owner sets one. */
  name: z.string(),
  is_public: z.boolean(),
  accept_copy: z.boolean(),
  show_trades: z.boolean(),
  show_positions: z.boolean(),
  allow_comments: z.boolean(),
  /**
   * Whether the strategy page shows the rules and parameters of the account's strategies (its
   * bots'); their names are shown either way. Off by default, and again when made private.
   */
  show_rules: z.boolean(),
  /** Written by copy trading; read-only here. */
  copiers_count: z.number().int(),
  /** Platform coins earned from copy fees, a decimal string; read-only here. */
  total_copy_earnings: z.string(),
  /** Sanitised HTML (the editor's allowlist), at most 2,000 visible characters. */
  description: z.string(),
  updated_at: z.string().nullable(),
  /** When the account first became public; null while it never was. */
  published_at: z.string().nullable(),
});
export type ShareSettings = z.infer<typeof shareSettings>;

/**
 * PUT body: a subset of the writable fields. Switching `is_public` off also resets
 * accept_copy, show_trades, show_positions and allow_comments to true (document 1 §4).
 * The read-only fields may be sent back unchanged; they are ignored.
 */
export const shareSettingsUpdateRequest = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { message: SQUARE_MESSAGES.nameRequired })
    .max(STRATEGY_NAME_MAX_LENGTH)
    .optional(),
  is_public: z.boolean().optional(),
  accept_copy: z.boolean().optional(),
  show_trades: z.boolean().optional(),
  show_positions: z.boolean().optional(),
  allow_comments: z.boolean().optional(),
  show_rules: z.boolean().optional(),
  description: z.string().max(SHARE_DESCRIPTION_MAX_HTML_LENGTH).optional(),
  account_id: z.unknown().optional(),
  copiers_count: z.unknown().optional(),
  total_copy_earnings: z.unknown().optional(),
  updated_at: z.unknown().optional(),
  published_at: z.unknown().optional(),
});
export type ShareSettingsUpdateRequest = z.infer<typeof shareSettingsUpdateRequest>;
