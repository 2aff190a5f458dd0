import {
  type BotCreateRequest,
  DEFAULT_TIMEFRAME,
  TIMEFRAMES,
  TRADE_AMOUNT_DEFAULT,
  USER_STRATEGY_ERROR_CODES,
} from '@quantsquare/contracts';
import { Alert, App, Button, Form, Modal, Select, theme } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useExchangeApis } from '../../api/accounts';
import { useCreateBot, useFreshnessCheck } from '../../api/bots';
import { ApiRequestError } from '../../api/client';
import { fieldErrors } from '../../api/field-errors';
import { useStrategies, useSymbols } from '../../api/trading';
import { accountName } from '../../shared/format/account-format';
import {
  type BotExists,
  type BotFormValues,
  type BotPreset,
  buildBotPayload,
  readBotExists,
  strategyParameterLabel,
} from '../../shared/format/bot-format';
import { BotExistsAlert } from './BotExistsAlert';
import { BotSizeFields } from './BotSizeFields';
import { useBotErrorText } from './use-bot-actions';

const FORM_FIELDS = new Set<string>([
  'exchange_api',
  'strategy',
  'symbol',
  'timeframe',
  'trade_amount',
  'stop_loss_percentage',
  'take_profit_percentage',
]);

const INITIAL_VALUES: Partial<BotFormValues> = {
  timeframe: DEFAULT_TIMEFRAME,
  trade_amount: TRADE_AMOUNT_DEFAULT,
};

interface Props {
  open: boolean;
  onClose: () => void;
  /** Preselects this exchange account (the publish page offers a bot on the new strategy). */
  initialAccountId?: number;
  /** Called once a bot has been created, before the dialog closes. */
  onCreated?: () => void;
  /** Fills the form (an optimisation's parameters); its parameters go with that strategy only. */
  preset?: BotPreset | null;
}

/** The Configure Trading Bot dialog (document 1 §2, §4 stale data, §5 bot form, §8 texts). */
export function BotCreateModal({ open, onClose, initialAccountId, onCreated, preset }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { token } = theme.useToken();
  const [form] = Form.useForm<BotFormValues>();
  const apis = useExchangeApis();
  const strategies = useStrategies();
  const create = useCreateBot();
  const checkFreshness = useFreshnessCheck();
  const errorText = useBotErrorText();
  const [isChecking, setChecking] = useState(false);
  const [exists, setExists] = useState<BotExists | null>(null);
  const [alertText, setAlertText] = useState<string | null>(null);
  // A custom strategy refused for want of VIP: the alert links to the VIP page.
  const [needsVip, setNeedsVip] = useState(false);

  const accounts = apis.data?.results ?? [];
  const hasAccount = accounts.length > 0;
  const accountId = Form.useWatch('exchange_api', form);
  const account = accounts.find((a) => a.id === accountId) ?? accounts[0];
  const exchange = account?.exchange ?? 'binance';
  const symbols = useSymbols(exchange);
  const symbolList = symbols.data?.symbols ?? [];
  const strategyList = strategies.data?.results ?? [];

  // Defaults once the lists arrive: the first account and strategy, a symbol of the exchange.
  useEffect(() => {
    if (!open) return;
    const preferred = accounts.find((a) => a.id === initialAccountId) ?? accounts[0];
    if (form.getFieldValue('exchange_api') === undefined && preferred) {
      form.setFieldValue('exchange_api', preferred.id);
    }
  }, [open, accounts, initialAccountId, form]);
  const presetStrategy = preset
    ? strategyList.find((s) => s.type === preset.strategyType)
    : undefined;
  useEffect(() => {
    if (!open) return;
    if (form.getFieldValue('strategy') === undefined) {
      const first = presetStrategy ?? strategyList[0];
      if (first) form.setFieldValue('strategy', first.id);
    }
  }, [open, strategyList, presetStrategy, form]);
  // A preset fills the market and the levels once, when the dialog opens.
  useEffect(() => {
    if (!open || !preset) return;
    form.setFieldsValue({
      timeframe: preset.timeframe,
      symbol: preset.symbol,
      ...(preset.stop_loss_percentage === undefined
        ? {}
        : { stop_loss_percentage: preset.stop_loss_percentage }),
      ...(preset.take_profit_percentage === undefined
        ? {}
        : { take_profit_percentage: preset.take_profit_percentage }),
    });
  }, [open, preset, form]);
  const chosenStrategyId = Form.useWatch('strategy', form);
  // The preset's parameters belong to its strategy: choosing another drops them.
  const presetParameters =
    preset && presetStrategy && chosenStrategyId === presetStrategy.id
      ? preset.parameters
      : undefined;
  const hasPresetParameters =
    presetParameters !== undefined && Object.keys(presetParameters).length > 0;
  // Reads the form's live value: the watched one can lag a render behind and would then
  // replace a symbol the user has just chosen.
  useEffect(() => {
    if (!open || symbolList.length === 0) return;
    const current: unknown = form.getFieldValue('symbol');
    if (typeof current !== 'string' || !symbolList.includes(current)) {
      form.setFieldValue('symbol', symbolList[0]);
    }
  }, [open, symbolList, form]);

  const close = () => {
    setExists(null);
    setAlertText(null);
    setNeedsVip(false);
    form.resetFields();
    create.reset();
    onClose();
  };

  const askStale = (payload: BotCreateRequest, delay: number, max: number) =>
    new Promise<boolean>((resolve) => {
      modal.confirm({
        title: t('bots.confirm.staleTitle'),
        content: t('bots.confirm.staleBody', {
          symbol: payload.symbol,
          timeframe: payload.timeframe,
          delay: Math.round(delay),
          max: Math.round(max),
        }),
        okText: t('bots.confirm.continue'),
        cancelText: t('common.cancel'),
        okButtonProps: { autoInsertSpace: false },
        cancelButtonProps: { autoInsertSpace: false },
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      });
    });

  const submit = async (values: BotFormValues) => {
    setExists(null);
    setAlertText(null);
    setNeedsVip(false);
    const built = buildBotPayload(values);
    const payload =
      built && hasPresetParameters ? { ...built, parameters: presetParameters } : built;
    const chosen = accounts.find((a) => a.id === values.exchange_api);
    if (!payload || !chosen) return;

    setChecking(true);
    try {
      const freshness = await checkFreshness({
        exchange: chosen.exchange,
        symbol: payload.symbol,
        timeframe: payload.timeframe,
      });
      if (!freshness.is_fresh) {
        setChecking(false);
        const proceed = await askStale(
          payload,
          freshness.delay_seconds,
          freshness.max_allowed_delay,
        );
        if (!proceed) {
          void message.warning(t('bots.messages.staleCancelled'));
          return;
        }
      }
    } catch {
      // The check failing does not block creating; the user is told.
      void message.warning(t('bots.messages.freshnessFailed'));
    } finally {
      setChecking(false);
    }

    create.mutate(payload, {
      onSuccess: () => {
        void message.success(t('bots.messages.created'));
        onCreated?.();
        close();
      },
      onError: (error) => {
        const body = error instanceof ApiRequestError ? error.body : null;
        if (body?.code === USER_STRATEGY_ERROR_CODES.vipRequired) {
          setAlertText(t('bots.server.customStrategyVip'));
          setNeedsVip(true);
          return;
        }
        const found = readBotExists(body);
        if (found) {
          setExists(found);
          return;
        }
        const errors = fieldErrors(t, error);
        const shown = Object.entries(errors).filter(([name]) => FORM_FIELDS.has(name));
        if (shown.length > 0) {
          // Field errors are worded from their codes (fieldErrors).
          form.setFields(
            shown.map(([name, text]) => ({ name: name as keyof BotFormValues, errors: [text] })),
          );
          return;
        }
        setAlertText(errorText(error, t('bots.messages.createFailed')));
      },
    });
  };

  const isSubmitting = isChecking || create.isPending;
  const required = (field: string) => ({
    required: true,
    message: t('bots.form.required', { field }),
  });
  return (
    <Modal
      open={open}
      title={t('bots.form.title')}
      onCancel={close}
      destroyOnHidden
      footer={null}
      width={520}
    >
      <Form<BotFormValues>
        form={form}
        layout="vertical"
        initialValues={INITIAL_VALUES}
        onFinish={(values) => void submit(values)}
        requiredMark={false}
        style={{ marginTop: 12 }}
      >
        {!apis.isPending && !hasAccount && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('bots.form.noAccount')}
            description={
              <Link to="/my/api-management" style={{ color: token.colorLink }}>
                {t('bots.form.addAccount')}
              </Link>
            }
            data-testid="bot-form-no-account"
          />
        )}
        <Form.Item
          name="exchange_api"
          label={t('bots.form.account')}
          rules={[required(t('bots.form.account'))]}
        >
          <Select
            data-testid="bot-form-account"
            placeholder={t('bots.form.accountPlaceholder')}
            loading={apis.isPending}
            options={accounts.map((a) => ({
              value: a.id,
              title: accountName(a, t('bots.experience')),
              label: [
                accountName(a, t('bots.experience')),
                t(`bots.exchanges.${a.exchange}`),
                a.is_experience ? t('bots.experience') : a.is_paper ? t('bots.paper') : null,
              ]
                .filter((part) => part !== null && part !== '')
                .filter((part, index, parts) => parts.indexOf(part) === index)
                .join(' · '),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="strategy"
          label={t('bots.form.strategy')}
          rules={[required(t('bots.form.strategy'))]}
        >
          <Select
            data-testid="bot-form-strategy"
            placeholder={t('bots.form.strategyPlaceholder')}
            loading={strategies.isPending}
            options={strategyList.map((s) => ({ value: s.id, label: s.name }))}
          />
        </Form.Item>
        {hasPresetParameters && (
          <Alert
            type="success"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('bots.form.presetParameters')}
            description={Object.entries(presetParameters)
              .map(([name, value]) => `${strategyParameterLabel(t, name)} = ${value}`)
              .join(' · ')}
            data-testid="bot-form-parameters"
          />
        )}
        <div style={{ display: 'grid', gap: '0 12px', gridTemplateColumns: '2fr 1fr' }}>
          <Form.Item
            name="symbol"
            label={t('bots.form.symbol')}
            rules={[required(t('bots.form.symbol'))]}
          >
            <Select
              data-testid="bot-form-symbol"
              showSearch
              placeholder={t('bots.form.symbolPlaceholder')}
              loading={symbols.isPending}
              options={symbolList.map((s) => ({ value: s, label: s }))}
            />
          </Form.Item>
          <Form.Item
            name="timeframe"
            label={t('bots.form.timeframe')}
            rules={[required(t('bots.form.timeframe'))]}
          >
            <Select
              data-testid="bot-form-timeframe"
              options={TIMEFRAMES.map((tf) => ({ value: tf, label: tf }))}
            />
          </Form.Item>
        </div>
        <BotSizeFields />
        {exists && <BotExistsAlert exists={exists} />}
        {alertText && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 16 }}
            title={alertText}
            description={
              needsVip ? (
                <Link to="/my/profile" style={{ color: token.colorLink }}>
                  {t('bots.server.getVip')}
                </Link>
              ) : undefined
            }
            data-testid="bot-form-error"
          />
        )}
        <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8 }}>
          <Button onClick={close} autoInsertSpace={false}>
            {t('bots.form.cancel')}
          </Button>
          <Button
            type="primary"
            htmlType="submit"
            loading={isSubmitting}
            disabled={isSubmitting || !hasAccount}
            data-testid="bot-form-submit"
          >
            {t('bots.form.submit')}
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
