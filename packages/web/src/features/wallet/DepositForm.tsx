import {
  DEPOSIT_NETWORKS,
  type DepositInfoResponse,
  type DepositNetwork,
  isTxHashFormatValid,
  OFFCHAIN_REFERENCE_MAX_LENGTH,
  WALLET_ADDRESS_MAX_LENGTH,
} from '@quantsquare/contracts';
import {
  Alert,
  App,
  Button,
  Empty,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Radio,
} from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { type DepositBody, useSubmitDeposit } from '../../api/wallet';
import { walletErrorMessage, walletFieldErrors } from '../../shared/errors/wallet-errors';
import { formatCoinAmount } from '../../shared/format/money';
import { depositAmountProblem } from './amount-rules';
import { DepositNetworkInfo } from './DepositNetworkInfo';

interface DepositValues {
  network?: DepositNetwork;
  amount?: string | null;
  tx_hash?: string;
  offchain_reference?: string;
}

const FIELDS = ['network', 'amount', 'tx_hash', 'offchain_reference'] as const;

/** The amount: at least the network's minimum, in steps of 0.01. */
function amountRuleFor(t: TFunction, locale: string, minAmount: string | undefined): Rule {
  return {
    validator: (_, value: string | null | undefined) => {
      if (minAmount === undefined) return Promise.resolve();
      const problem = depositAmountProblem(value, minAmount);
      if (problem === null) return Promise.resolve();
      const min = formatCoinAmount(minAmount, locale);
      const text =
        problem === 'belowMinimum' || problem === 'required'
          ? t('deposit.amountMin', { min })
          : problem === 'tooLarge'
            ? t('wallet.errors.amountTooLarge')
            : problem === 'step'
              ? t('wallet.errors.amountStep')
              : t('wallet.errors.invalidAmount');
      return Promise.reject(new Error(text));
    },
  };
}

/** The tx hash: given, and in the chosen network's format. */
function txHashRuleFor(t: TFunction, network: DepositNetwork | undefined): Rule {
  return {
    validator: (_, value: string | undefined) => {
      const hash = value?.trim() ?? '';
      if (!hash) return Promise.reject(new Error(t('wallet.errors.txHashRequired')));
      if (network && network !== 'OFFCHAIN' && !isTxHashFormatValid(network, hash)) {
        return Promise.reject(new Error(t('wallet.errors.txHashInvalid')));
      }
      return Promise.resolve();
    },
  };
}

/** Sending the request: success resets the proof and starts the balance polling. */
function useDepositSend(form: FormInstance<DepositValues>, onSubmitted: () => void) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const submit = useSubmitDeposit();
  const send = (values: DepositValues) => {
    if (!values.network || !values.amount) return;
    const body: DepositBody =
      values.network === 'OFFCHAIN'
        ? {
            amount: values.amount,
            network: values.network,
            offchain_reference: values.offchain_reference?.trim(),
          }
        : { amount: values.amount, network: values.network, tx_hash: values.tx_hash?.trim() };
    submit.mutate(body, {
      onSuccess: () => {
        void message.success(t('deposit.success'));
        form.resetFields(['amount', 'tx_hash', 'offchain_reference']);
        onSubmitted();
      },
      onError: (error) => {
        const perField = walletFieldErrors(t, error);
        form.setFields(
          FIELDS.filter((name) => perField[name]).map((name) => ({
            name,
            errors: [perField[name] as string],
          })),
        );
        void message.error(walletErrorMessage(t, error, t('deposit.failed')));
      },
    });
  };
  return { run: send, isPending: submit.isPending };
}

/** The proof of the deposit: a tx hash on-chain, a reference off-chain. */
function DepositProofField({
  network,
  txHashRule,
}: {
  network: DepositNetwork | undefined;
  txHashRule: Rule;
}) {
  const { t } = useTranslation();
  return network === 'OFFCHAIN' ? (
    <Form.Item
      name="offchain_reference"
      label={t('deposit.offchainReference')}
      rules={[
        {
          required: true,
          whitespace: true,
          message: t('wallet.errors.offchainReferenceRequired'),
        },
      ]}
    >
      <Input
        maxLength={OFFCHAIN_REFERENCE_MAX_LENGTH}
        placeholder={t('deposit.offchainReferencePlaceholder')}
        data-testid="deposit-reference"
      />
    </Form.Item>
  ) : (
    <Form.Item name="tx_hash" label={t('deposit.txHash')} rules={[txHashRule]}>
      <Input
        maxLength={WALLET_ADDRESS_MAX_LENGTH}
        placeholder={
          network === 'BEP20'
            ? t('deposit.txHashPlaceholderBEP20')
            : t('deposit.txHashPlaceholderTRC20')
        }
        spellCheck={false}
        autoComplete="off"
        style={{ fontFamily: 'monospace' }}
        data-testid="deposit-tx-hash"
      />
    </Form.Item>
  );
}

/**
 * Network choice, the chosen network's details and the request form (document 2 §2, §5):
 * amount at least the network's minimum in steps of 0.01, a tx hash on-chain in the network's
 * format, a reference off-chain. `onSubmitted` starts the balance polling.
 */
export function DepositForm({
  networks,
  onSubmitted,
}: {
  networks: DepositInfoResponse;
  onSubmitted: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<DepositValues>();
  const network = Form.useWatch('network', form);
  const info = network ? networks[network] : undefined;
  const offered = DEPOSIT_NETWORKS.filter((n) => networks[n] !== undefined);

  const amountRule = amountRuleFor(t, i18n.language, info?.min_amount);
  const txHashRule = txHashRuleFor(t, network);
  const send = useDepositSend(form, onSubmitted);

  if (offered.length === 0) {
    return (
      <Alert
        type="warning"
        showIcon
        title={t('deposit.unavailable')}
        data-testid="deposit-unavailable"
      />
    );
  }

  return (
    <Form<DepositValues>
      form={form}
      name="deposit"
      layout="vertical"
      onFinish={send.run}
      requiredMark={false}
      onValuesChange={(changed) => {
        // Another network: the proof field changes meaning, so its old value and errors go, and
        // an amount already typed is checked against the new minimum.
        if ('network' in changed) {
          form.resetFields(['tx_hash', 'offchain_reference']);
          if (form.isFieldTouched('amount')) {
            void form.validateFields(['amount']).catch(() => undefined);
          }
        }
      }}
    >
      <Form.Item
        name="network"
        label={t('deposit.network')}
        rules={[{ required: true, message: t('deposit.selectNetwork') }]}
      >
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          className="qs-choice-grid"
          data-testid="deposit-network"
          options={offered.map((n) => ({
            value: n,
            label: <span data-testid={`deposit-network-${n}`}>{t(`wallet.networks.${n}`)}</span>,
          }))}
        />
      </Form.Item>
      {info ? (
        <div style={{ marginBottom: 20 }}>
          <DepositNetworkInfo info={info} />
        </div>
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('deposit.chooseFirst')}
          style={{ marginBottom: 20 }}
        />
      )}
      <Form.Item name="amount" label={t('deposit.amount')} rules={[amountRule]}>
        <InputNumber<string>
          // No min/precision: antd would turn -5 into 0 or round 1.555 unseen; the rule says it.
          stringMode
          step="0.01"
          placeholder={
            info
              ? t('deposit.amountPlaceholder', {
                  min: formatCoinAmount(info.min_amount, i18n.language),
                })
              : undefined
          }
          style={{ width: '100%' }}
          data-testid="deposit-amount"
        />
      </Form.Item>
      <DepositProofField network={network} txHashRule={txHashRule} />
      <Button
        type="primary"
        htmlType="submit"
        block
        loading={send.isPending}
        data-testid="deposit-submit"
      >
        {t('deposit.submit')}
      </Button>
    </Form>
  );
}
