import { STAFF_MESSAGES, WALLET_MESSAGES } from '@quantsquare/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiRequestError } from '../src/api/client';
import i18n from '../src/i18n/index';
import { walletErrorMessage, walletFieldErrors } from '../src/shared/errors/wallet-errors';
import '../src/i18n/wallet-texts';

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

describe('wallet errors in the reader language', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('zh-CN');
  });

  it('translates the field message of a validation answer', () => {
    const error = failure(400, {
      error: 'Invalid request',
      code: 'validation_failed',
      fields: { amount: [WALLET_MESSAGES.invalidWithdrawalAmount] },
      field_codes: { amount: ['invalid_withdrawal_amount'] },
    });
    expect(walletErrorMessage(t, error, 'fallback')).toBe('提现金额无效');
    expect(walletFieldErrors(t, error)).toEqual({ amount: '提现金额无效' });
  });

  it('says why staff were refused: their own request, or not staff at all', () => {
    expect(
      walletErrorMessage(
        t,
        failure(403, { error: STAFF_MESSAGES.ownRequest, code: 'own_request' }),
        'x',
      ),
    ).toBe('工作人员不能处理自己的申请，请由其他工作人员处理');
    expect(
      walletErrorMessage(t, failure(403, { error: 'Forbidden', code: 'forbidden' }), 'x'),
    ).toBe('仅限工作人员操作');
  });

  it('names a decision taken meanwhile and an insufficient balance by their codes', () => {
    expect(walletErrorMessage(t, failure(409, { error: 'x', code: 'not_pending' }), 'f')).toBe(
      '该申请已被处理，列表已刷新',
    );
    expect(
      walletErrorMessage(t, failure(400, { error: 'x', code: 'insufficient_balance' }), 'f'),
    ).toBe('余额不足');
  });

  it('fills in the limit of pending deposits and falls back for unknown failures', () => {
    expect(
      walletErrorMessage(
        t,
        failure(400, {
          error: WALLET_MESSAGES.tooManyPendingDeposits,
          code: 'too_many_pending_deposits',
        }),
        'f',
      ),
    ).toContain('10');
    expect(walletErrorMessage(t, new Error('boom'), '提交充值失败')).toBe('提交充值失败');
  });
});
