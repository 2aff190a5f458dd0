import {
  ACCOUNT_NAME_MAX_LENGTH,
  ACCOUNT_TYPES,
  API_CREDENTIAL_MAX_LENGTH,
  EXCHANGES,
  LEVERAGE_MAX,
  LEVERAGE_MIN,
  PAPER_BALANCE_DEFAULT,
  PAPER_BALANCE_MAX,
  PAPER_BALANCE_MIN,
  POSITION_MODES,
} from '@quantsquare/contracts';
import {
  Alert,
  App,
  Button,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Modal,
  Select,
  Switch,
} from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateExchangeApi } from '../../api/accounts';
import { ApiRequestError } from '../../api/client';
import { fieldErrors } from '../../api/field-errors';
import { type ApiFormValues, buildCreatePayload } from '../../shared/format/account-format';
import { formatGrouped } from '../../shared/format/money';
import { type NumberFieldRule, numberFieldProblem } from '../../shared/forms/number-field';
import {
  isStepUpAsked,
  StepUpCodeField,
  stepUpErrorText,
  useHasTwoFactor,
} from '../../shared/forms/StepUpCodeField';
import { useExchangeErrorKindText } from './ExchangeErrorText';

// Typed numbers are checked, never clamped or rounded behind the user's back.
const PAPER_BALANCE_RULE: NumberFieldRule = {
  min: PAPER_BALANCE_MIN,
  max: PAPER_BALANCE_MAX,
  decimals: 2,
};
const LEVERAGE_RULE: NumberFieldRule = { min: LEVERAGE_MIN, max: LEVERAGE_MAX, decimals: 0 };

const INITIAL_VALUES: Partial<ApiFormValues> = {
  exchange: 'binance',
  account_type: 'classic',
  is_paper: false,
  paper_balance: PAPER_BALANCE_DEFAULT,
  is_testnet: false,
  position_mode: 'hedge',
  default_leverage: 1,
};

const FORM_FIELDS = new Set<string>([
  'name',
  'exchange',
  'account_type',
  'is_paper',
  'paper_balance',
  'api_key',
  'api_secret',
  'api_password',
  'is_testnet',
  'position_mode',
  'default_leverage',
  'google_code',
]);

interface Props {
  open: boolean;
  onClose: () => void;
}

/** A number field's check: out of range or off its step, with the text for each. */
function numberRule(rule: NumberFieldRule, rangeText: string, stepText: string) {
  return {
    validator: (_: unknown, value: unknown) => {
      if (value === null || value === undefined || value === '') return Promise.resolve();
      const problem = typeof value === 'number' ? numberFieldProblem(value, rule) : 'step';
      if (problem === null) return Promise.resolve();
      return Promise.reject(new Error(problem === 'step' ? stepText : rangeText));
    },
  };
}

/** A required text field's rule, naming the field. */
const requiredRule = (t: TFunction) => (field: string) => ({
  required: true,
  whitespace: true,
  message: t('apis.form.required', { field }),
});

/** A paper account's starting balance. */
function PaperBalanceField() {
  const { t, i18n } = useTranslation();
  const limit = (value: number) => formatGrouped(value, i18n.language);
  return (
    <Form.Item
      name="paper_balance"
      label={t('apis.form.paperBalance')}
      rules={[
        {
          required: true,
          message: t('apis.form.required', { field: t('apis.form.paperBalance') }),
        },
        numberRule(
          PAPER_BALANCE_RULE,
          t('apis.form.paperBalanceRange', {
            min: limit(PAPER_BALANCE_MIN),
            max: limit(PAPER_BALANCE_MAX),
          }),
          t('apis.form.twoDecimals'),
        ),
      ]}
    >
      <InputNumber step={100} style={{ width: '100%' }} data-testid="api-form-paper-balance" />
    </Form.Item>
  );
}

/** A live key: key, secret, the OKX passphrase, and the testnet switch. */
function LiveKeyFields({
  exchange,
  required,
}: {
  exchange: ApiFormValues['exchange'] | undefined;
  required: ReturnType<typeof requiredRule>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Alert type="info" showIcon title={t('apis.form.keyHint')} style={{ marginBottom: 16 }} />
      <Form.Item
        name="api_key"
        label={t('apis.form.apiKey')}
        rules={[required(t('apis.form.apiKey'))]}
      >
        <Input
          maxLength={API_CREDENTIAL_MAX_LENGTH}
          autoComplete="off"
          data-testid="api-form-key"
        />
      </Form.Item>
      <Form.Item
        name="api_secret"
        label={t('apis.form.apiSecret')}
        rules={[required(t('apis.form.apiSecret'))]}
      >
        <Input.Password
          maxLength={API_CREDENTIAL_MAX_LENGTH}
          autoComplete="new-password"
          data-testid="api-form-secret"
        />
      </Form.Item>
      {exchange === 'okx' && (
        <Form.Item
          name="api_password"
          label={t('apis.form.apiPassword')}
          extra={t('apis.form.apiPasswordHelp')}
          rules={[required(t('apis.form.apiPassword'))]}
        >
          <Input.Password
            maxLength={API_CREDENTIAL_MAX_LENGTH}
            autoComplete="new-password"
            data-testid="api-form-password"
          />
        </Form.Item>
      )}
      <Form.Item name="is_testnet" label={t('apis.form.testnet')} valuePropName="checked">
        <Switch data-testid="api-form-testnet" />
      </Form.Item>
    </>
  );
}

/**
 * Adding the key: a live key is checked on adding and the verdict said; a refusal's field errors
 * go under their fields, and the spec's alert above them.
 */
function useAddApi(form: FormInstance<ApiFormValues>, close: () => void) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const create = useCreateExchangeApi();
  const kindText = useExchangeErrorKindText();
  // The server asked for a code the form did not show (2FA turned on since the page loaded).
  const [isStepUpForced, setStepUpForced] = useState(false);
  const [alertText, setAlertText] = useState<string | null>(null);

  const submit = (values: ApiFormValues) => {
    setAlertText(null);
    create.mutate(buildCreatePayload(values), {
      // A live key is checked on adding: say the verdict (the list shows it too).
      onSuccess: (api) => {
        if (api.is_paper) void message.success(t('apis.messages.added'));
        else if (api.last_check_ok) void message.success(t('apis.messages.addedChecked'));
        else {
          void message.warning(
            <span data-testid="api-added-check-failed">
              {t('apis.messages.addedCheckFailed', { reason: kindText(api.last_error_kind) })}
            </span>,
          );
        }
        close();
      },
      onError: (error) => {
        const stepUpText = stepUpErrorText(t, error);
        if (stepUpText !== null) {
          if (isStepUpAsked(error)) setStepUpForced(true);
          form.setFields([{ name: 'google_code', value: '', errors: [stepUpText] }]);
          return;
        }
        const errors = fieldErrors(t, error);
        const shown = Object.entries(errors).filter(([name]) => FORM_FIELDS.has(name));
        form.setFields(
          shown.map(([name, text]) => ({ name: name as keyof ApiFormValues, errors: [text] })),
        );
        // The spec's alert: the first api_password error, else the generic failure.
        const isOffline = error instanceof ApiRequestError && error.kind !== 'http';
        setAlertText(
          errors.api_password ??
            (isOffline
              ? t(error.kind === 'timeout' ? 'errors.timeout' : 'errors.network')
              : t('apis.messages.addFailed')),
        );
      },
    });
  };

  return { create, submit, isStepUpForced, alertText, setAlertText };
}

/** How the account trades: position mode and default leverage. */
function TradingFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="position_mode" label={t('apis.form.positionMode')}>
        <Select
          data-testid="api-form-position-mode"
          options={POSITION_MODES.map((value) => ({
            value,
            label: t(`apis.positionModes.${value}`),
          }))}
        />
      </Form.Item>
      <Form.Item
        name="default_leverage"
        label={t('apis.form.leverage')}
        rules={[
          {
            required: true,
            message: t('apis.form.required', { field: t('apis.form.leverage') }),
          },
          numberRule(
            LEVERAGE_RULE,
            t('apis.form.leverageRange', { min: LEVERAGE_MIN, max: LEVERAGE_MAX }),
            t('apis.form.leverageWhole'),
          ),
        ]}
      >
        <InputNumber suffix="x" style={{ width: '100%' }} data-testid="api-form-leverage" />
      </Form.Item>
    </>
  );
}

/** The Add API modal (document 1 §5 "Add API", §8 API management texts). */
export function AddApiModal({ open, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ApiFormValues>();
  const hasTwoFactor = useHasTwoFactor();
  const { create, submit, isStepUpForced, alertText, setAlertText } = useAddApi(form, () =>
    close(),
  );
  const exchange = Form.useWatch('exchange', form) ?? INITIAL_VALUES.exchange;
  const isPaper = Form.useWatch('is_paper', form) ?? false;
  const required = requiredRule(t);

  const close = () => {
    setAlertText(null);
    form.resetFields();
    create.reset();
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('apis.form.title')}
      onCancel={close}
      destroyOnHidden
      maskClosable={false}
      footer={[
        <Button key="cancel" onClick={close}>
          {t('common.cancel')}
        </Button>,
        <Button
          key="submit"
          type="primary"
          loading={create.isPending}
          onClick={() => form.submit()}
          data-testid="api-form-submit"
        >
          {t('apis.form.submit')}
        </Button>,
      ]}
    >
      <Form<ApiFormValues>
        form={form}
        layout="vertical"
        initialValues={INITIAL_VALUES}
        onFinish={submit}
        requiredMark
        data-testid="api-form"
      >
        {alertText && (
          <Alert
            type="error"
            showIcon
            title={alertText}
            style={{ marginBottom: 16 }}
            data-testid="api-form-alert"
          />
        )}
        <Form.Item name="name" label={t('apis.form.name')} rules={[required(t('apis.form.name'))]}>
          <Input
            maxLength={ACCOUNT_NAME_MAX_LENGTH}
            placeholder={t('apis.form.namePlaceholder')}
            data-testid="api-form-name"
          />
        </Form.Item>
        <Form.Item name="exchange" label={t('apis.form.exchange')} rules={[{ required: true }]}>
          <Select
            data-testid="api-form-exchange"
            options={EXCHANGES.map((value) => ({ value, label: t(`apis.exchanges.${value}`) }))}
          />
        </Form.Item>
        <Form.Item name="account_type" label={t('apis.form.accountType')}>
          <Select
            data-testid="api-form-account-type"
            options={ACCOUNT_TYPES.map((value) => ({
              value,
              label: t(`apis.accountTypes.${value}`),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="is_paper"
          label={t('apis.form.paper')}
          valuePropName="checked"
          extra={t('apis.form.paperHelp')}
        >
          <Switch data-testid="api-form-paper" />
        </Form.Item>
        {isPaper ? (
          <PaperBalanceField />
        ) : (
          <LiveKeyFields exchange={exchange} required={required} />
        )}
        <TradingFields />
        {/* A live key of a user with 2FA on is confirmed with the authenticator code. */}
        {!isPaper && (hasTwoFactor || isStepUpForced) && <StepUpCodeField />}
      </Form>
    </Modal>
  );
}
