import { AUTH_MESSAGES } from '@quantsquare/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiRequestError } from '../src/api/client';
import { errorMessage } from '../src/api/errors';
import { fieldErrors } from '../src/api/field-errors';
import { copyErrorText } from '../src/features/copy-trading/copy-errors';
import i18n, { changeLanguage, loadLanguage } from '../src/i18n';
import '../src/i18n/copy-texts';
import '../src/i18n/square-texts';
import { squareErrorText } from '../src/shared/errors/square-errors';

const httpError = (body: ConstructorParameters<typeof ApiRequestError>[2]) =>
  new ApiRequestError('http', 400, body);

describe('server error texts', () => {
  beforeAll(async () => {
    await loadLanguage('en');
    await changeLanguage('zh-CN');
  });

  it("shows the server's own text for a code the web does not know, in every error helper", () => {
    const zh = i18n.getFixedT('zh-CN');
    // The server says it in the reader's language (the request's Accept-Language).
    const error = new ApiRequestError('http', 503, {
      error: '行情服务维护中',
      code: 'maintenance',
    });
    expect(errorMessage(zh, error, '操作失败')).toBe('行情服务维护中');
    expect(squareErrorText(zh, error, '操作失败')).toBe('行情服务维护中');
    expect(copyErrorText(zh, error, '操作失败')).toBe('行情服务维护中');
    // Without a text of its own, the caller's fallback.
    const bare = new ApiRequestError('http', 503, { error: '', code: 'maintenance' });
    expect(errorMessage(zh, bare, '操作失败')).toBe('操作失败');
    expect(squareErrorText(zh, bare, '操作失败')).toBe('操作失败');
  });

  it("keeps the web's translation for a known code, whatever the server's text", () => {
    const zh = i18n.getFixedT('zh-CN');
    const en = i18n.getFixedT('en');
    const said = (code: string) => httpError({ error: 'A sentence the server may reword', code });
    expect(errorMessage(zh, said('invalid_credentials'), 'fb')).toBe('邮箱或密码错误');
    expect(errorMessage(en, said('invalid_credentials'), 'fb')).toBe('Invalid email or password');
    expect(squareErrorText(zh, said('comments_disabled'), 'fb')).toBe('该策略已关闭评论');
    expect(copyErrorText(zh, said('leader_not_found'), 'fb')).toBe('策略不存在或未公开');
  });

  it('maps the login catalogue to translated messages', () => {
    const zh = i18n.getFixedT('zh-CN');
    const en = i18n.getFixedT('en');
    const error = httpError({
      error: AUTH_MESSAGES.invalidCredentials,
      code: 'invalid_credentials',
    });
    expect(errorMessage(zh, error, 'fallback')).toBe('邮箱或密码错误');
    expect(errorMessage(en, error, 'fallback')).toBe('Invalid email or password');
  });

  it('shows an unknown server text as given and falls back without one', () => {
    const t = i18n.getFixedT('zh-CN');
    expect(errorMessage(t, httpError({ error: 'Something new', code: 'x' }), 'fb')).toBe(
      'Something new',
    );
    expect(errorMessage(t, new ApiRequestError('http', 502, null), 'fb')).toBe('fb');
    expect(errorMessage(t, new Error('boom'), 'fb')).toBe('fb');
  });

  it('says how long to wait after a cooldown', () => {
    const t = i18n.getFixedT('en');
    const error = httpError({ error: 'Please wait', code: 'code_cooldown', retry_after: 42 });
    expect(errorMessage(t, error, 'fb')).toContain('42');
  });

  it('says a change rolled back by another one was not saved and may be tried again', () => {
    const error = new ApiRequestError('http', 409, {
      error: 'Another change was being saved at the same moment; nothing was changed. Try again.',
      code: 'concurrent_change',
    });
    expect(errorMessage(i18n.getFixedT('zh-CN'), error, 'fb')).toBe(
      '其他更改正在同时保存，本次操作未生效，请重试',
    );
    expect(errorMessage(i18n.getFixedT('en'), error, 'fb')).toContain('nothing was changed');
    const gone = new ApiRequestError('http', 409, {
      error: 'Something this request refers to was deleted meanwhile; nothing was changed.',
      code: 'reference_gone',
    });
    expect(errorMessage(i18n.getFixedT('zh-CN'), gone, 'fb')).toBe(
      '相关内容已被删除，本次操作未生效',
    );
  });

  it('keeps the first message per field, said by its code', () => {
    const t = i18n.getFixedT('zh-CN');
    const error = httpError({
      error: AUTH_MESSAGES.emailAlreadyRegistered,
      code: 'validation_failed',
      fields: {
        email: [AUTH_MESSAGES.emailAlreadyRegistered, 'second'],
        password2: [AUTH_MESSAGES.passwordMismatch],
      },
      field_codes: { email: ['email_taken', 'invalid'], password2: ['password_mismatch'] },
    });
    expect(fieldErrors(t, error)).toEqual({ email: '该邮箱已被注册', password2: '密码不一致' });
    // The one-line message of the same answer is its first field's.
    expect(errorMessage(t, error, 'fb')).toBe('该邮箱已被注册');
  });

  it('tells apart the codes that share a kind of text', () => {
    const zh = i18n.getFixedT('zh-CN');
    const said = (code: string) => errorMessage(zh, httpError({ error: 'English', code }), 'fb');
    expect(said('invalid_email_code')).toBe('邮箱验证码无效或已过期');
    expect(said('invalid_code')).toBe('验证码无效或已过期');
    expect(said('not_registered')).toBe('该邮箱尚未注册');
    expect(said('phone_not_registered')).toBe('账号未注册，请先注册');
    expect(said('phone_already_registered')).toBe('该手机号码已被注册');
    expect(said('refresh_reused')).toBe('登录状态已失效，请重新登录');
  });

  it("says each field error from its code, with the field's own limit where it has one", () => {
    const zh = i18n.getFixedT('zh-CN');
    const en = i18n.getFixedT('en');
    const error = httpError({
      error: 'Validation failed',
      code: 'validation_failed',
      fields: {
        email: ['Some English sentence the web does not know'],
        password: ['String must contain at least 8 character(s)'],
        default_leverage: ['Number must be less than or equal to 125'],
        paper_balance: ['Number must be greater than or equal to 100'],
        trade_amount: ['Too many decimals'],
      },
      field_codes: {
        email: ['email_taken'],
        password: ['too_short'],
        default_leverage: ['too_big'],
        paper_balance: ['too_small'],
        trade_amount: ['invalid_step'],
      },
    });
    expect(fieldErrors(zh, error)).toEqual({
      email: '该邮箱已被注册',
      password: '密码至少需要 8 位字符',
      default_leverage: '杠杆倍数需在 1 到 125 之间',
      paper_balance: '模拟资金需在 100 到 100,000,000 USDT 之间',
      trade_amount: '最多保留两位小数',
    });
    expect(fieldErrors(en, error).paper_balance).toBe(
      'The paper balance must be between 100 and 100,000,000 USDT',
    );
  });

  it('falls back to the server message for a code it does not know', () => {
    const t = i18n.getFixedT('zh-CN');
    const error = httpError({
      error: 'Validation failed',
      code: 'validation_failed',
      fields: { symbol: ['Brand-new rule'], nickname: ['x'] },
      field_codes: { symbol: ['some_future_code'] },
    });
    expect(fieldErrors(t, error)).toEqual({ symbol: 'Brand-new rule', nickname: 'x' });
  });
});
