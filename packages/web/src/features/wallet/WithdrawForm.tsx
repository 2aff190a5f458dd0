import {
  isAddressFormatValid,
  WALLET_ADDRESS_MAX_LENGTH,
  WITHDRAW_FEE_USDT,
  WITHDRAW_MIN_AMOUNT,
  WITHDRAW_NETWORKS,
  type WithdrawNetwork,
} from '@quantsquare/contracts';
import {
  App,
  Button,
  Flex,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Modal,
  Radio,
  Typography,
} from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSubmitWithdrawal } from '../../api/wallet';
import { walletErrorMessage, walletFieldErrors } from '../../shared/errors/wallet-errors';
import { formatCoinAmount } from '../../shared/format/money';
import {
  isStepUpAsked,
  StepUpCodeField,
  stepUpErrorText,
  useHasTwoFactor,
} from '../../shared/forms/StepUpCodeField';
import { isWithdrawAmountValid, maxWithdrawable, withdrawReceive } from './amount-rules';

interface WithdrawValues {
  network?: WithdrawNetwork;
  address?: string;
  amount?: string | null;
}

const FIELDS = ['network', 'address', 'amount'] as const;

/** 'Withdraw {amount−1} USDT to {address} via {network}?', with the code when 2FA is on. */
function WithdrawConfirmDialog({
  pending,
  asksCode,
  stepUpForm,
  isSending,
  onOk,
  onCancel,
}: {
  pending: WithdrawValues | null;
  asksCode: boolean;
  stepUpForm: FormInstance<{ google_code?: string }>;
  isSending: boolean;
  onOk: () => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const pendingAmount = pending?.amount ?? '';
  return (
    <Modal
      open={pending !== null}
      title={t('withdraw.confirmTitle')}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: isSending, 'data-testid': 'withdraw-confirm' } as never}
      onOk={onOk}
      onCancel={onCancel}
      destroyOnHidden
      maskClosable={false}
      width={440}
    >
      <Flex vertical gap={8} style={{ marginBottom: asksCode ? 12 : 0 }}>
        <Typography.Text style={{ overflowWrap: 'anywhere' }} data-testid="withdraw-confirm-text">
          {t('withdraw.confirm', {
            amount: withdrawReceive(pendingAmount) ?? pendingAmount,
            address: pending?.address?.trim() ?? '',
            network: pending?.network ?? '',
          })}
        </Typography.Text>
        <Typography.Text type="secondary">
          {t('withdraw.confirmDebit', {
            amount: formatCoinAmount(pendingAmount, locale),
            fee: WITHDRAW_FEE_USDT,
          })}
        </Typography.Text>
      </Flex>
      <Form form={stepUpForm} layout="vertical" requiredMark={false} onFinish={onOk}>
        {asksCode && <StepUpCodeField />}
      </Form>
    </Modal>
  );
}

/** The fee, and what arrives for the amount typed (a dash until it is valid). */
function WithdrawFigures({ receive }: { receive: string | null }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <Flex
      justify="space-between"
      wrap
      gap={8}
      style={{ marginBottom: 16, fontVariantNumeric: 'tabular-nums' }}
    >
      <Typography.Text type="secondary">
        {t('withdraw.feeLine', { amount: t('wallet.usdt', { amount: WITHDRAW_FEE_USDT }) })}
      </Typography.Text>
      <Typography.Text data-testid="withdraw-receive">
        {t('withdraw.receiveLine', {
          amount:
            receive === null
              ? '—'
              : t('wallet.usdt', { amount: formatCoinAmount(receive, locale) }),
        })}
      </Typography.Text>
    </Flex>
  );
}

/** The amount: at least the minimum, at most the balance, in cents. */
function amountRuleFor(t: TFunction, balance: string): Rule {
  return {
    validator: (_, value: string | null | undefined) =>
      isWithdrawAmountValid(value, balance)
        ? Promise.resolve()
        : Promise.reject(new Error(t('wallet.errors.invalidWithdrawalAmount'))),
  };
}

/** The address: given, and of the chosen network's format. */
function addressRuleFor(t: TFunction, network: WithdrawNetwork | undefined): Rule {
  return {
    validator: (_, value: string | undefined) => {
      const address = value?.trim() ?? '';
      if (!address) return Promise.reject(new Error(t('wallet.errors.addressRequired')));
      if (network && !isAddressFormatValid(network, address)) {
        return Promise.reject(new Error(t('wallet.errors.addressInvalid')));
      }
      return Promise.resolve();
    },
  };
}

/**
 * A withdrawal from the form's values to the server: confirmed in a dialog (with the code when
 * 2FA is on), sent with one request id per dialog so that a retried send acts once.
 */
function useWithdrawal(
  form: FormInstance<WithdrawValues>,
  stepUpForm: FormInstance<{ google_code?: string }>,
) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const hasTwoFactor = useHasTwoFactor();
  // The withdrawal waiting for confirmation (its request id is kept across retries of the dialog).
  const [pending, setPending] = useState<{ values: WithdrawValues; requestId: string } | null>(
    null,
  );
  const [isStepUpForced, setStepUpForced] = useState(false);
  const asksCode = hasTwoFactor || isStepUpForced;
  const submit = useSubmitWithdrawal();

  const closeConfirm = () => {
    setPending(null);
    stepUpForm.resetFields();
  };

  const send = (values: WithdrawValues, requestId: string, googleCode: string | undefined) =>
    submit
      .mutateAsync({
        amount: values.amount ?? '',
        address: values.address?.trim() ?? '',
        network: values.network as WithdrawNetwork,
        request_id: requestId,
        ...(googleCode ? { google_code: googleCode } : {}),
      })
      .then(() => {
        closeConfirm();
        void message.success(t('withdraw.success'));
        form.resetFields(['amount', 'address']);
      })
      .catch((error: unknown) => {
        // A missing or wrong code: said at the code, the dialog stays open for another.
        const stepUpText = stepUpErrorText(t, error);
        if (stepUpText !== null) {
          if (isStepUpAsked(error)) setStepUpForced(true);
          stepUpForm.setFields([{ name: 'google_code', value: '', errors: [stepUpText] }]);
          return;
        }
        closeConfirm();
        const perField = walletFieldErrors(t, error);
        form.setFields(
          FIELDS.filter((name) => perField[name]).map((name) => ({
            name,
            errors: [perField[name] as string],
          })),
        );
        void message.error(walletErrorMessage(t, error, t('withdraw.failed')));
      });

  const confirm = (values: WithdrawValues) =>
    setPending({ values, requestId: crypto.randomUUID() });

  const confirmOk = () => {
    if (!pending) return;
    stepUpForm
      .validateFields()
      .then(({ google_code }) => send(pending.values, pending.requestId, google_code?.trim()))
      .catch(() => undefined);
  };

  return { pending, asksCode, submit, confirm, confirmOk, closeConfirm };
}

/**
 * The withdrawal form (document 2 §2, §5): network TRC20 or BEP20, an address of that network,
 * an amount of at least 2 and at most the balance; confirmed as 'Withdraw {amount−1} USDT to
 * {address} via {network}?'. One request id per confirmed dialog, so a retried send acts once.
 */
export function WithdrawForm({ balance }: { balance: string }) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<WithdrawValues>();
  const [stepUpForm] = Form.useForm<{ google_code?: string }>();
  const { pending, asksCode, submit, confirm, confirmOk, closeConfirm } = useWithdrawal(
    form,
    stepUpForm,
  );
  const network = Form.useWatch('network', form);
  const amount = Form.useWatch('amount', form);
  const _locale = i18n.language;
  const maximum = maxWithdrawable(balance);
  const receive = amount && isWithdrawAmountValid(amount, balance) ? withdrawReceive(amount) : null;

  const amountRule = amountRuleFor(t, balance);
  const addressRule = addressRuleFor(t, network);

  return (
    <>
      <WithdrawConfirmDialog
        pending={pending?.values ?? null}
        asksCode={asksCode}
        stepUpForm={stepUpForm}
        isSending={submit.isPending}
        onOk={confirmOk}
        onCancel={closeConfirm}
      />
      <Form<WithdrawValues>
        form={form}
        name="withdraw"
        layout="vertical"
        requiredMark={false}
        onFinish={confirm}
        onValuesChange={(changed) => {
          // The address is checked against the network: re-check it when the network changes.
          if ('network' in changed && form.getFieldValue('address')) {
            void form.validateFields(['address']).catch(() => undefined);
          }
        }}
      >
        <Form.Item
          name="network"
          label={t('withdraw.network')}
          rules={[{ required: true, message: t('wallet.errors.selectNetwork') }]}
        >
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            data-testid="withdraw-network"
            options={WITHDRAW_NETWORKS.map((n) => ({
              value: n,
              label: <span data-testid={`withdraw-network-${n}`}>{t(`wallet.networks.${n}`)}</span>,
            }))}
          />
        </Form.Item>
        <Form.Item name="address" label={t('withdraw.address')} rules={[addressRule]}>
          <Input
            maxLength={WALLET_ADDRESS_MAX_LENGTH}
            placeholder={
              network === 'BEP20'
                ? t('withdraw.addressPlaceholderBEP20')
                : t('withdraw.addressPlaceholderTRC20')
            }
            spellCheck={false}
            autoComplete="off"
            style={{ fontFamily: 'monospace' }}
            data-testid="withdraw-address"
          />
        </Form.Item>
        <Form.Item label={t('withdraw.amount')} required>
          <Flex gap={8}>
            <Form.Item name="amount" rules={[amountRule]} noStyle>
              <InputNumber<string>
                stringMode
                min="0"
                step="0.01"
                placeholder={t('withdraw.amountPlaceholder', { min: WITHDRAW_MIN_AMOUNT })}
                style={{ flex: 1, width: '100%' }}
                data-testid="withdraw-amount"
              />
            </Form.Item>
            <Button
              disabled={maximum === null}
              onClick={() => {
                form.setFieldValue('amount', maximum);
                void form.validateFields(['amount']).catch(() => undefined);
              }}
              data-testid="withdraw-all"
            >
              {t('withdraw.all')}
            </Button>
          </Flex>
        </Form.Item>
        <WithdrawFigures receive={receive} />
        <Button
          type="primary"
          htmlType="submit"
          block
          loading={submit.isPending}
          data-testid="withdraw-submit"
        >
          {t('withdraw.submit')}
        </Button>
      </Form>
    </>
  );
}
