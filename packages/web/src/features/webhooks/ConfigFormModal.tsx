import '../../i18n/accounts-texts';
import {
  TRADINGVIEW_WEBHOOK_IPS,
  WEBHOOK_ACTIONS,
  WEBHOOK_AMOUNT_DEFAULT,
  WEBHOOK_AMOUNT_MAX,
  WEBHOOK_AMOUNT_MIN,
  WEBHOOK_IP_ALLOWLIST_MAX,
  WEBHOOK_LEVERAGE_DEFAULT,
  WEBHOOK_LEVERAGE_MAX,
  WEBHOOK_LEVERAGE_MIN,
  WEBHOOK_MAX_SIGNAL_AGE_DEFAULT,
  WEBHOOK_MAX_SIGNAL_AGE_MAX,
  WEBHOOK_MAX_SIGNAL_AGE_MIN,
  WEBHOOK_NAME_MAX_LENGTH,
  type WebhookAction,
  type WebhookConfig,
  type WebhookConfigCreateRequest,
} from '@quantsquare/contracts';
import {
  Alert,
  Button,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Switch,
  theme,
} from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useExchangeApis } from '../../api/accounts';
import { errorMessage } from '../../api/errors';
import { useCreateWebhookConfig, useUpdateWebhookConfig } from '../../api/webhooks';
import { accountName } from '../../shared/format/account-format';
import { formatGrouped } from '../../shared/format/money';
import { type NumberFieldRule, numberFieldProblem } from '../../shared/forms/number-field';
import { webhookFieldErrors } from './webhook-errors';
import { looksLikeIp } from './webhook-format';

interface FormValues {
  name: string;
  exchange_api?: number;
  symbol_mode: 'fixed' | 'alert';
  symbol?: string;
  default_amount: number | null;
  max_amount: number | null;
  leverage: number | null;
  allowed_actions: WebhookAction[];
  allow_pyramiding: boolean;
  max_signal_age: number | null;
  ip_allowlist: string[];
  enabled: boolean;
}

const FIELDS = new Set<string>([
  'name',
  'exchange_api',
  'symbol',
  'default_amount',
  'max_amount',
  'leverage',
  'allowed_actions',
  'allow_pyramiding',
  'max_signal_age',
  'ip_allowlist',
  'enabled',
]);

const NEW_VALUES: FormValues = {
  name: '',
  symbol_mode: 'fixed',
  symbol: 'BTC/USDT:USDT',
  default_amount: WEBHOOK_AMOUNT_DEFAULT,
  max_amount: null,
  leverage: WEBHOOK_LEVERAGE_DEFAULT,
  allowed_actions: [...WEBHOOK_ACTIONS],
  allow_pyramiding: false,
  max_signal_age: WEBHOOK_MAX_SIGNAL_AGE_DEFAULT,
  ip_allowlist: [],
  enabled: true,
};

function valuesOf(config: WebhookConfig): FormValues {
  return {
    name: config.name,
    exchange_api: config.exchange_api,
    symbol_mode: config.symbol ? 'fixed' : 'alert',
    symbol: config.symbol ?? undefined,
    default_amount: Number(config.default_amount),
    max_amount: config.max_amount === null ? null : Number(config.max_amount),
    leverage: config.leverage,
    allowed_actions: config.allowed_actions,
    allow_pyramiding: config.allow_pyramiding,
    max_signal_age: config.max_signal_age,
    ip_allowlist: config.ip_allowlist,
    enabled: config.enabled,
  };
}

function bodyOf(values: FormValues): WebhookConfigCreateRequest {
  return {
    name: values.name.trim(),
    exchange_api: values.exchange_api ?? 0,
    symbol: values.symbol_mode === 'fixed' ? (values.symbol?.trim() ?? null) : null,
    default_amount: String(values.default_amount),
    max_amount: values.max_amount === null ? null : String(values.max_amount),
    leverage: values.leverage ?? WEBHOOK_LEVERAGE_DEFAULT,
    allowed_actions: values.allowed_actions,
    allow_pyramiding: values.allow_pyramiding,
    max_signal_age: values.max_signal_age ?? WEBHOOK_MAX_SIGNAL_AGE_DEFAULT,
    ip_allowlist: values.ip_allowlist.map((ip) => ip.trim()).filter(Boolean),
    enabled: values.enabled,
  };
}

const isWholeInRange = (value: unknown, min: number, max: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
/** The amount fields' rule, checked as the bot form checks its numbers (shown, never clamped). */
const AMOUNT_RULE: NumberFieldRule = {
  min: WEBHOOK_AMOUNT_MIN,
  max: WEBHOOK_AMOUNT_MAX,
  decimals: 2,
};

interface Props {
  /** null: closed; 'new': create; a configuration: edit it. */
  target: WebhookConfig | 'new' | null;
  onClose: () => void;
  /** After a create: the answer carries the full URL, shown once. */
  onCreated: (config: WebhookConfig) => void;
  onSaved: () => void;
}

/** Create or edit a webhook configuration (issue 13 "Configurations"). */
export function ConfigFormModal({ target, onClose, onCreated, onSaved }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [form] = Form.useForm<FormValues>();
  const apis = useExchangeApis();
  const create = useCreateWebhookConfig();
  const update = useUpdateWebhookConfig();
  const [alertText, setAlertText] = useState<string | null>(null);
  const editing = target !== null && target !== 'new' ? target : null;
  const symbolMode = Form.useWatch('symbol_mode', form);

  const close = () => {
    setAlertText(null);
    onClose();
  };

  const accounts = (apis.data?.results ?? []).filter(
    (a) => a.is_active || a.id === editing?.exchange_api,
  );
  const experienceName = t('apis.experienceName');

  const submit = (values: FormValues) => {
    setAlertText(null);
    const body = bodyOf(values);
    const onError = (error: unknown) => {
      const errors = Object.entries(webhookFieldErrors(t, error)).filter(([f]) => FIELDS.has(f));
      if (errors.length > 0) {
        form.setFields(
          errors.map(([name, text]) => ({ name: name as keyof FormValues, errors: [text] })),
        );
        return;
      }
      setAlertText(errorMessage(t, error, t('webhooks.actionFailed')));
    };
    if (editing) {
      update.mutate(
        { id: editing.id, body },
        {
          onSuccess: () => {
            onSaved();
            close();
          },
          onError,
        },
      );
      return;
    }
    create.mutate(body, {
      onSuccess: (config) => {
        close();
        onCreated(config);
      },
      onError,
    });
  };

  const amountText = t('webhooks.form.rules.amountRange', {
    min: WEBHOOK_AMOUNT_MIN,
    max: formatGrouped(WEBHOOK_AMOUNT_MAX, 'en-US'),
  });
  const amountRules = (optional: boolean): Rule[] => [
    {
      validator: (_, value: unknown) => {
        if (value === null || value === undefined) {
          return optional ? Promise.resolve() : Promise.reject(new Error(amountText));
        }
        const problem = typeof value === 'number' ? numberFieldProblem(value, AMOUNT_RULE) : 'step';
        if (problem === null) return Promise.resolve();
        return Promise.reject(
          new Error(problem === 'step' ? t('webhooks.form.rules.amountStep') : amountText),
        );
      },
    },
  ];

  return (
    <Modal
      open={target !== null}
      title={editing ? t('webhooks.form.editTitle') : t('webhooks.form.createTitle')}
      onCancel={close}
      destroyOnHidden
      width={600}
      footer={[
        <Button key="cancel" onClick={close}>
          {t('webhooks.form.cancel')}
        </Button>,
        <Button
          key="submit"
          type="primary"
          loading={create.isPending || update.isPending}
          onClick={() => form.submit()}
          data-testid="webhook-form-submit"
        >
          {editing ? t('webhooks.form.submitEdit') : t('webhooks.form.submitCreate')}
        </Button>,
      ]}
    >
      <Form<FormValues>
        key={editing?.id ?? 'new'}
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={editing ? valuesOf(editing) : NEW_VALUES}
        onFinish={submit}
        style={{ marginTop: 12 }}
        data-testid="webhook-form"
      >
        {alertText && (
          <Alert type="error" showIcon title={alertText} style={{ marginBottom: 16 }} />
        )}
        {!apis.isPending && accounts.length === 0 && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('webhooks.form.noAccounts')}
            description={
              <Link to="/my/api-management" style={{ color: token.colorLink }}>
                {t('my.apiManagement')}
              </Link>
            }
          />
        )}
        <Form.Item
          name="name"
          label={t('webhooks.form.name')}
          rules={[
            { required: true, whitespace: true, message: t('webhooks.form.rules.nameRequired') },
            {
              max: WEBHOOK_NAME_MAX_LENGTH,
              message: t('webhooks.form.rules.nameTooLong', { max: WEBHOOK_NAME_MAX_LENGTH }),
            },
          ]}
        >
          <Input placeholder={t('webhooks.form.namePlaceholder')} data-testid="webhook-form-name" />
        </Form.Item>
        <Form.Item
          name="exchange_api"
          label={t('webhooks.form.account')}
          rules={[{ required: true, message: t('webhooks.form.rules.accountRequired') }]}
        >
          <Select
            data-testid="webhook-form-account"
            placeholder={t('webhooks.form.accountPlaceholder')}
            loading={apis.isPending}
            options={accounts.map((a) => {
              const name = accountName(a, experienceName);
              const kind = a.is_paper
                ? t('webhooks.form.paper')
                : a.is_testnet
                  ? t('webhooks.form.testnet')
                  : null;
              return {
                value: a.id,
                title: name,
                label: [name, a.exchange.toUpperCase(), kind].filter(Boolean).join(' · '),
              };
            })}
          />
        </Form.Item>
        <Form.Item name="symbol_mode" label={t('webhooks.form.symbolMode')}>
          <Radio.Group
            data-testid="webhook-form-symbol-mode"
            options={[
              { value: 'fixed', label: t('webhooks.form.symbolFixed') },
              { value: 'alert', label: t('webhooks.form.symbolFromAlert') },
            ]}
          />
        </Form.Item>
        {symbolMode === 'alert' ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('webhooks.form.symbolFromAlertHint', { example: '{{ticker}}' })}
          />
        ) : (
          <Form.Item
            name="symbol"
            label={t('webhooks.form.symbol')}
            rules={[
              {
                required: true,
                whitespace: true,
                message: t('webhooks.form.rules.symbolRequired'),
              },
            ]}
          >
            <Input
              placeholder={t('webhooks.form.symbolPlaceholder')}
              data-testid="webhook-form-symbol"
            />
          </Form.Item>
        )}
        <div
          style={{
            display: 'grid',
            gap: '0 12px',
            gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 160px), 1fr))',
          }}
        >
          <Form.Item
            name="default_amount"
            label={t('webhooks.form.defaultAmount')}
            tooltip={t('webhooks.form.defaultAmountHint')}
            rules={amountRules(false)}
          >
            {/* No min/max/precision on these numbers: antd would change a typed value unseen
                (-100 became 10); the rules above say what is wrong instead. */}
            <InputNumber
              step={1}
              style={{ width: '100%' }}
              suffix="USDT"
              data-testid="webhook-form-amount"
            />
          </Form.Item>
          <Form.Item
            name="max_amount"
            label={t('webhooks.form.maxAmount')}
            dependencies={['default_amount']}
            rules={[
              ...amountRules(true),
              ({ getFieldValue }) => ({
                validator: (_, value: unknown) => {
                  const base = getFieldValue('default_amount');
                  if (typeof value === 'number' && typeof base === 'number' && value < base) {
                    return Promise.reject(new Error(t('webhooks.form.rules.maxBelowDefault')));
                  }
                  return Promise.resolve();
                },
              }),
            ]}
          >
            <InputNumber
              step={1}
              style={{ width: '100%' }}
              placeholder={t('webhooks.form.maxAmountPlaceholder')}
              suffix="USDT"
              data-testid="webhook-form-max-amount"
            />
          </Form.Item>
          <Form.Item
            name="leverage"
            label={t('webhooks.form.leverage')}
            tooltip={t('webhooks.form.leverageHint')}
            rules={[
              {
                validator: (_, value: unknown) =>
                  isWholeInRange(value, WEBHOOK_LEVERAGE_MIN, WEBHOOK_LEVERAGE_MAX)
                    ? Promise.resolve()
                    : Promise.reject(
                        new Error(
                          t('webhooks.form.rules.leverageRange', {
                            min: WEBHOOK_LEVERAGE_MIN,
                            max: WEBHOOK_LEVERAGE_MAX,
                          }),
                        ),
                      ),
              },
            ]}
          >
            <InputNumber
              step={1}
              style={{ width: '100%' }}
              suffix="x"
              data-testid="webhook-form-leverage"
            />
          </Form.Item>
          <Form.Item
            name="max_signal_age"
            label={t('webhooks.form.maxSignalAge')}
            tooltip={t('webhooks.form.maxSignalAgeHint')}
            rules={[
              {
                validator: (_, value: unknown) =>
                  isWholeInRange(value, WEBHOOK_MAX_SIGNAL_AGE_MIN, WEBHOOK_MAX_SIGNAL_AGE_MAX)
                    ? Promise.resolve()
                    : Promise.reject(
                        new Error(
                          t('webhooks.form.rules.maxAgeRange', {
                            min: WEBHOOK_MAX_SIGNAL_AGE_MIN,
                            max: WEBHOOK_MAX_SIGNAL_AGE_MAX,
                          }),
                        ),
                      ),
              },
            ]}
          >
            <InputNumber step={1} style={{ width: '100%' }} data-testid="webhook-form-max-age" />
          </Form.Item>
        </div>
        <Form.Item
          name="allowed_actions"
          label={t('webhooks.form.allowedActions')}
          rules={[
            {
              required: true,
              type: 'array',
              min: 1,
              message: t('webhooks.form.rules.actionsRequired'),
            },
          ]}
        >
          <Checkbox.Group
            data-testid="webhook-form-actions"
            options={WEBHOOK_ACTIONS.map((action) => ({
              value: action,
              label: t(`webhooks.actions.${action}`),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="allow_pyramiding"
          label={t('webhooks.form.pyramiding')}
          extra={t('webhooks.form.pyramidingHint')}
          valuePropName="checked"
        >
          <Switch data-testid="webhook-form-pyramiding" />
        </Form.Item>
        <Form.Item
          label={t('webhooks.form.ipAllowlist')}
          extra={t('webhooks.form.ipAllowlistHint')}
          style={{ marginBottom: 0 }}
        >
          <Form.Item
            name="ip_allowlist"
            rules={[
              {
                validator: (_, value: unknown) => {
                  const list = Array.isArray(value) ? (value as string[]) : [];
                  if (list.length > WEBHOOK_IP_ALLOWLIST_MAX) {
                    return Promise.reject(
                      new Error(
                        t('webhooks.form.rules.tooManyIps', { max: WEBHOOK_IP_ALLOWLIST_MAX }),
                      ),
                    );
                  }
                  return list.every(looksLikeIp)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('webhooks.form.rules.invalidIp')));
                },
              },
            ]}
            style={{ marginBottom: 8 }}
          >
            <Select
              mode="tags"
              open={false}
              suffixIcon={null}
              tokenSeparators={[',', ' ', '\n']}
              placeholder={t('webhooks.form.ipAllowlistPlaceholder')}
              data-testid="webhook-form-ips"
            />
          </Form.Item>
          <Button
            size="small"
            style={{ marginBottom: 24 }}
            data-testid="webhook-form-tradingview-ips"
            onClick={() => {
              const current = (form.getFieldValue('ip_allowlist') as string[] | undefined) ?? [];
              form.setFieldValue('ip_allowlist', [
                ...new Set([...current, ...TRADINGVIEW_WEBHOOK_IPS]),
              ]);
              void form.validateFields(['ip_allowlist']);
            }}
          >
            {t('webhooks.form.tradingViewPreset')}
          </Button>
        </Form.Item>
        <Form.Item name="enabled" label={t('webhooks.form.enabled')} valuePropName="checked">
          <Switch data-testid="webhook-form-enabled" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
