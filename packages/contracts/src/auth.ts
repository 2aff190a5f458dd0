import { z } from 'zod';
import {
  codeSchema,
  emailSchema,
  loginPasswordSchema,
  passwordSchema,
  phoneSchema,
} from './common.js';
import { BIO_MAX_LENGTH, INVITATION_CODE_MAX_LENGTH, NICKNAME_MAX_LENGTH } from './limits.js';

export const CODE_CHANNELS = ['email', 'phone'] as const;
export type CodeChannel = (typeof CODE_CHANNELS)[number];
/**
 * What a code is for: signing in, proving the target when registering by phone, or resetting a
 * forgotten password. The spec's client sends `action` only for login, so a request without it
 * is a registration.
 */
export const CODE_ACTIONS = ['login', 'register', 'reset_password'] as const;
export type CodeAction = (typeof CODE_ACTIONS)[number];

export const sendCodeRequest = z.strictObject({
  type: z.enum(CODE_CHANNELS),
  target: z.string().trim().min(1, { message: 'This field is required' }).max(254),
  action: z.enum(CODE_ACTIONS).default('register'),
});
export type SendCodeRequest = z.infer<typeof sendCodeRequest>;

export const sendCodeResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  cooldown_seconds: z.number().int(),
  expires_in_seconds: z.number().int(),
});
export type SendCodeResponse = z.infer<typeof sendCodeResponse>;

const optionalGoogleCode = codeSchema.optional();
const invitationCode = z
  .string()
  .trim()
  .max(INVITATION_CODE_MAX_LENGTH)
  .optional()
  .transform((v) => (v ? v : undefined));

export const loginRequest = z.strictObject({
  email: emailSchema,
  password: loginPasswordSchema,
  // Every e-mail login needs an e-mail code; a missing one answers the spec's
  // 'Email verification code is required', so it is optional at the schema level.
  email_code: z.string().trim().max(16).optional(),
  google_code: optionalGoogleCode,
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const phoneLoginRequest = z.strictObject({
  phone: phoneSchema,
  code: codeSchema,
  google_code: optionalGoogleCode,
});
export type PhoneLoginRequest = z.infer<typeof phoneLoginRequest>;

export const registerRequest = z.strictObject({
  email: emailSchema,
  password: passwordSchema,
  password2: z.string().max(256),
  invitation_code: invitationCode,
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export const phoneRegisterRequest = z.strictObject({
  phone: phoneSchema,
  code: codeSchema,
  password: passwordSchema,
  password2: z.string().max(256),
  invitation_code: invitationCode,
});
export type PhoneRegisterRequest = z.infer<typeof phoneRegisterRequest>;

/**
 * A forgotten password: the e-mail or phone of the account, the code sent to it for
 * `reset_password`, and the new password twice. Every session of the account ends.
 */
export const resetPasswordRequest = z.strictObject({
  type: z.enum(CODE_CHANNELS),
  target: z.string().trim().min(1, { message: 'This field is required' }).max(254),
  code: codeSchema,
  password: passwordSchema,
  password2: z.string().max(256),
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

export const refreshRequest = z.strictObject({
  refresh: z.string().min(1).max(4096),
});
export type RefreshRequest = z.infer<typeof refreshRequest>;

export const changePasswordRequest = z.strictObject({
  old_password: loginPasswordSchema,
  new_password: passwordSchema,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

export const googleCodeRequest = z.strictObject({
  google_code: codeSchema,
});
export type GoogleCodeRequest = z.infer<typeof googleCodeRequest>;

export const profileUpdateRequest = z.strictObject({
  nickname: z.string().trim().max(NICKNAME_MAX_LENGTH).optional(),
  bio: z.string().trim().max(BIO_MAX_LENGTH).optional(),
  /** Only the avatar the user uploaded (upload-avatar), or null / "" to remove it. */
  avatar_url: z
    .string()
    .trim()
    .max(512)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v)),
});
export type ProfileUpdateRequest = z.infer<typeof profileUpdateRequest>;
/** What a client sends (before the schema's transforms). */
export type ProfileUpdateRequestBody = z.input<typeof profileUpdateRequest>;

/** The signed-in user as every auth answer carries it. Money is a decimal string. */
export const authUser = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  platform_balance: z.string(),
  is_vip: z.boolean(),
  is_vip_active: z.boolean(),
  vip_expires_at: z.string().nullable(),
  invitation_code: z.string(),
  google_auth_enabled: z.boolean(),
  two_factor_enabled: z.boolean(),
  is_staff: z.boolean(),
  date_joined: z.string(),
});
export type AuthUser = z.infer<typeof authUser>;

export const profile = authUser.extend({
  nickname: z.string(),
  bio: z.string(),
  avatar_url: z.string().nullable(),
});
export type Profile = z.infer<typeof profile>;

export const tokenPair = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof tokenPair>;

export const loginResponse = tokenPair.extend({ user: authUser });
export type LoginResponse = z.infer<typeof loginResponse>;

export const registerResponse = loginResponse.extend({
  auto_login: z.boolean(),
  message: z.string(),
});
export type RegisterResponse = z.infer<typeof registerResponse>;

export const accountSecurity = z.object({
  email: z.string().nullable(),
  phone: z.string().nullable(),
  google_auth_enabled: z.boolean(),
  two_factor_enabled: z.boolean(),
});
export type AccountSecurity = z.infer<typeof accountSecurity>;

export const twoFactorEnableResponse = z.object({
  qr_code: z.string(),
  secret: z.string(),
  otpauth_url: z.string(),
});
export type TwoFactorEnableResponse = z.infer<typeof twoFactorEnableResponse>;

export const messageResponse = z.object({ success: z.boolean(), message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;
