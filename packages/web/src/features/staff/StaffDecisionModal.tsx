import {
  isTxHashFormatValid,
  STAFF_REASON_MAX_LENGTH,
  type StaffRequest,
  WALLET_ADDRESS_MAX_LENGTH,
} from '@quantsquare/contracts';
import { Alert, App, Form, Input, Modal, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client';
import { type StaffDecisionInput, useStaffDecision } from '../../api/staff';
import { walletErrorMessage } from '../../shared/errors/wallet-errors';
import { formatCoinAmount } from '../../shared/format/money';

/** The decisions that need a text: a reason (reject, fail) or the payout's hash (complete). */
export type TextDecision = 'reject' | 'complete' | 'fail';

export interface PendingTextDecision {
  request: StaffRequest;
  action: TextDecision;
}

interface TextValues {
  text: string;
}

/** Builds the call of a decision from the form's text. */
function decisionInput(decision: PendingTextDecision, text: string): StaffDecisionInput {
  const id = decision.request.id;
  if (decision.action === 'reject')
    return { queue: 'deposits', id, action: 'reject', body: { reason: text } };
  if (decision.action === 'fail')
    return { queue: 'withdrawals', id, action: 'fail', body: { reason: text } };
  return { queue: 'withdrawals', id, action: 'complete', body: { tx_hash: text } };
}

/** The dialog's title and question for the decision. */
function decisionTexts(
  t: TFunction,
  locale: string,
  decision: PendingTextDecision | null,
): { title: string; body: string } {
  const request = decision?.request;
  const action = decision?.action;
  const email = request?.user_email ?? request?.user_phone ?? `#${request?.user_id ?? ''}`;
  const title =
    action === 'reject'
      ? t('staffConsole.confirm.rejectTitle')
      : action === 'fail'
        ? t('staffConsole.confirm.failTitle')
        : t('staffConsole.confirm.completeTitle');
  const body = !request
    ? ''
    : action === 'reject'
      ? t('staffConsole.confirm.reject', {
          email,
          amount: formatCoinAmount(request.amount, locale),
        })
      : action === 'fail'
        ? t('staffConsole.confirm.fail', {
            email,
            amount: formatCoinAmount(request.amount, locale),
          })
        : t('staffConsole.confirm.complete', {
            address: request.address ?? '—',
            amount: formatCoinAmount(request.net_amount, locale),
          });
  return { title, body };
}

/**
 * Reject a deposit, fail (refund) or complete a withdrawal: a confirmation that asks for the
 * reason or the transaction hash. A request decided meanwhile (409) closes with that news.
 */
export function StaffDecisionModal({
  decision,
  onClose,
}: {
  decision: PendingTextDecision | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TextValues>();
  const decide = useStaffDecision();
  const [error, setError] = useState<string | null>(null);
  const request = decision?.request;
  const action = decision?.action;
  const locale = i18n.language;

  const close = () => {
    setError(null);
    form.resetFields();
    onClose();
  };

  const submit = ({ text }: TextValues) => {
    if (!decision) return;
    setError(null);
    decide.mutate(decisionInput(decision, text.trim()), {
      onSuccess: () => {
        void message.success(t('staffConsole.done'));
        close();
      },
      onError: (failure) => {
        if (failure instanceof ApiRequestError && failure.status === 409) {
          void message.warning(t('wallet.errors.notPending'));
          close();
          return;
        }
        setError(walletErrorMessage(t, failure, t('staffConsole.failed')));
      },
    });
  };

  const { title, body } = decisionTexts(t, locale, decision);
  const isHash = action === 'complete';
  const network = request?.network;

  return (
    <Modal
      open={decision !== null}
      title={title}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      okButtonProps={{
        danger: action !== 'complete',
        loading: decide.isPending,
        'data-testid': 'staff-decision-ok',
      }}
      onOk={() => form.submit()}
      onCancel={close}
    >
      <Typography.Paragraph style={{ wordBreak: 'break-all' }}>{body}</Typography.Paragraph>
      {error && (
        <Alert
          type="error"
          showIcon
          title={error}
          style={{ marginBottom: 12 }}
          data-testid="staff-decision-error"
        />
      )}
      <Form<TextValues> form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item
          name="text"
          label={isHash ? t('staffConsole.txHash') : t('staffConsole.reason')}
          rules={[
            {
              required: true,
              whitespace: true,
              message: isHash
                ? t('wallet.errors.staffTxHashRequired')
                : t('wallet.errors.reasonRequired'),
            },
            {
              validator: (_, value: string | undefined) =>
                isHash &&
                value?.trim() &&
                (network === 'TRC20' || network === 'BEP20') &&
                !isTxHashFormatValid(network, value.trim())
                  ? Promise.reject(new Error(t('wallet.errors.txHashInvalid')))
                  : Promise.resolve(),
            },
          ]}
        >
          {isHash ? (
            <Input
              maxLength={WALLET_ADDRESS_MAX_LENGTH}
              placeholder={t('staffConsole.txHashPlaceholder')}
              spellCheck={false}
              style={{ fontFamily: 'monospace' }}
              data-testid="staff-decision-text"
            />
          ) : (
            <Input.TextArea
              maxLength={STAFF_REASON_MAX_LENGTH}
              showCount
              autoSize={{ minRows: 2, maxRows: 5 }}
              placeholder={t('staffConsole.reasonPlaceholder')}
              data-testid="staff-decision-text"
            />
          )}
        </Form.Item>
      </Form>
    </Modal>
  );
}
