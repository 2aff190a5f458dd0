import { COPY_AMOUNT_MAX, COPY_ERROR_CODES, COPY_MESSAGES } from '@quantsquare/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiRequestError } from '../src/api/client';
import { copyCreateErrorText, copyErrorText } from '../src/features/copy-trading/copy-errors';
import {
  comparisonDays,
  copyActionsFor,
  copyAmountProblem,
  entryDistanceProblem,
  maxLossPayload,
} from '../src/features/copy-trading/copy-format';
import i18n from '../src/i18n/index';
import '../src/i18n/copy-texts';
import '../src/i18n/field-errors-texts';

const t = i18n.t.bind(i18n);

function failure(
  status: number,
  body: {
    error: string;
    code: string;
    fields?: Record<string, string[]>;
    field_codes?: Record<string, string[]>;
  },
) {
  return new ApiRequestError('http', status, body);
}

describe('copy rules', () => {
  it('offers the actions each status allows (document 2 §4)', () => {
    expect(copyActionsFor('active')).toEqual(['pause', 'edit', 'stop']);
    expect(copyActionsFor('paused')).toEqual(['resume', 'edit', 'stop']);
    expect(copyActionsFor('stopped')).toEqual(['delete']);
  });

  it('checks the copy amount by the rule it breaks: at least 10, two decimals at most', () => {
    expect(copyAmountProblem(10)).toBeNull();
    expect(copyAmountProblem(150.5)).toBeNull();
    expect(copyAmountProblem(9.99)).toBe('tooSmall');
    expect(copyAmountProblem(-5)).toBe('tooSmall');
    expect(copyAmountProblem(null)).toBe('tooSmall');
    expect(copyAmountProblem(10.001)).toBe('step');
    expect(copyAmountProblem(1500.555)).toBe('step');
    expect(copyAmountProblem(COPY_AMOUNT_MAX + 1)).toBe('tooBig');
  });

  it('sends 0 or an empty max loss as no limit', () => {
    expect(maxLossPayload(0)).toBeNull();
    expect(maxLossPayload(null)).toBeNull();
    expect(maxLossPayload(50)).toBe('50');
  });

  it('keeps the late-join distance above 0 and at most 20%', () => {
    expect(entryDistanceProblem(1)).toBeNull();
    expect(entryDistanceProblem(0)).toBe('range');
    expect(entryDistanceProblem(25)).toBe('range');
  });
});

describe('copy errors in the reader language', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('zh-CN');
  });

  it('joins field errors as field: messages with "; " from their codes', () => {
    const error = failure(400, {
      error: 'Invalid request',
      code: 'validation_failed',
      fields: {
        copy_amount: ['anything'],
        follower_account_id: [COPY_MESSAGES.followerAccountInactive],
      },
      field_codes: { copy_amount: ['too_small'], follower_account_id: ['account_inactive'] },
    });
    expect(copyCreateErrorText(t, error)).toBe(
      '跟单金额: 跟单金额不能少于 10 USDT; 跟单账户: 该交易账户已停用',
    );
  });

  it("says known codes, the server's text for unknown ones, the fallback without one", () => {
    expect(
      copyCreateErrorText(
        t,
        failure(400, { error: 'whatever', code: COPY_ERROR_CODES.insufficientBalance }),
      ),
    ).toBe('平台币余额不足，需要至少 100 平台币');
    expect(
      copyCreateErrorText(
        t,
        failure(404, { error: 'English', code: COPY_ERROR_CODES.leaderNotFound }),
      ),
    ).toBe('策略不存在或未公开');
    // The server writes its text in the reader's language (Accept-Language).
    expect(
      copyCreateErrorText(t, failure(503, { error: '跟单服务维护中', code: 'maintenance' })),
    ).toBe('跟单服务维护中');
    expect(copyCreateErrorText(t, new ApiRequestError('http', 502, null))).toBe('创建跟单失败');
    expect(copyCreateErrorText(t, new ApiRequestError('network', 0, null))).toBe(
      '网络错误，请稍后重试',
    );
    expect(
      copyErrorText(
        t,
        failure(409, {
          error: COPY_MESSAGES.notDeletable,
          code: COPY_ERROR_CODES.transitionRefused,
        }),
        'x',
      ),
    ).toBe('当前状态下不能执行此操作');
    expect(
      copyErrorText(
        t,
        failure(409, {
          error: COPY_MESSAGES.positionsOpen,
          code: COPY_ERROR_CODES.positionsOpen,
        }),
        'x',
      ),
    ).toBe('跟单持仓尚未平仓，平仓完成后才能删除此跟单');
  });
});

describe('the simulated vs actual period', () => {
  it('is the shortest of 7, 30 and 90 days covering the copy, 90 at most', () => {
    const now = Date.parse('2026-06-30T00:00:00Z');
    expect(comparisonDays('2026-06-29T00:00:00Z', now)).toBe(7);
    expect(comparisonDays('2026-06-23T00:00:00Z', now)).toBe(7);
    expect(comparisonDays('2026-06-10T00:00:00Z', now)).toBe(30);
    expect(comparisonDays('2026-04-15T00:00:00Z', now)).toBe(90);
    expect(comparisonDays('2025-01-01T00:00:00Z', now)).toBe(90);
  });
});
