import {
  type BotCreateRequest,
  type Exchange,
  type ExchangeApi,
  USER_STRATEGY_ERROR_CODES,
} from '@quantsquare/contracts';
import { App, Form, type FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type useCreateBot, useFreshnessCheck } from '../../api/bots';
import { ApiRequestError } from '../../api/client';
import { fieldErrors } from '../../api/field-errors';
import {
  type BotExists,
  type BotFormValues,
  type BotPreset,
  buildBotPayload,
  readBotExists,
} from '../../shared/format/bot-format';
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

type ModalApi = ReturnType<typeof App.useApp>['modal'];

interface DefaultsInput {
  open: boolean;
  form: FormInstance<BotFormValues>;
  accounts: readonly ExchangeApi[];
  initialAccountId: number | undefined;
  strategyList: readonly { id: number; type: string }[];
  symbolList: readonly string[];
  preset: BotPreset | null | undefined;
}

/**
 * The form's defaults once the lists arrive (the first account and strategy, a symbol of the
 * exchange, a preset's market and levels), and the preset's parameters while its strategy is
 * the one chosen (undefined when there are none).
 */
export function useBotFormDefaults(input: DefaultsInput) {
  const { open, form, accounts, initialAccountId, strategyList, symbolList, preset } = input;
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
  // Reads the form's live value: the watched one can lag a render behind and would then
  // replace a symbol the user has just chosen.
  useEffect(() => {
    if (!open || symbolList.length === 0) return;
    const current: unknown = form.getFieldValue('symbol');
    if (typeof current !== 'string' || !symbolList.includes(current)) {
      form.setFieldValue('symbol', symbolList[0]);
    }
  }, [open, symbolList, form]);
  const hasParameters = presetParameters !== undefined && Object.keys(presetParameters).length > 0;
  return hasParameters ? presetParameters : undefined;
}

function confirmStale(
  modal: ModalApi,
  t: TFunction,
  payload: BotCreateRequest,
  delay: number,
  max: number,
) {
  return new Promise<boolean>((resolve) => {
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
}

/**
 * The data-freshness check before creating (document 1 §4): stale data asks whether to go on;
 * a failed check does not block, the user is told. `passes` answers whether to create.
 */
function useFreshnessGate() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const checkFreshness = useFreshnessCheck();
  const [isChecking, setChecking] = useState(false);

  const passes = async (exchange: Exchange, payload: BotCreateRequest): Promise<boolean> => {
    setChecking(true);
    try {
      const freshness = await checkFreshness({
        exchange,
        symbol: payload.symbol,
        timeframe: payload.timeframe,
      });
      if (!freshness.is_fresh) {
        setChecking(false);
        const proceed = await confirmStale(
          modal,
          t,
          payload,
          freshness.delay_seconds,
          freshness.max_allowed_delay,
        );
        if (!proceed) {
          void message.warning(t('bots.messages.staleCancelled'));
          return false;
        }
      }
    } catch {
      // The check failing does not block creating; the user is told.
      void message.warning(t('bots.messages.freshnessFailed'));
    } finally {
      setChecking(false);
    }
    return true;
  };
  return { isChecking, passes };
}

interface CreateInput {
  form: FormInstance<BotFormValues>;
  accounts: readonly ExchangeApi[];
  /** Only when there are some: they go with the payload. */
  presetParameters: Record<string, number> | undefined;
  create: ReturnType<typeof useCreateBot>;
  onCreated: (() => void) | undefined;
  onClose: () => void;
}

/**
 * Creating a bot: the freshness check, then the create. A refusal shows as the VIP alert, the
 * bot-exists alert, field errors under their fields, or one error alert.
 */
export function useBotCreate({
  form,
  accounts,
  presetParameters,
  create,
  onCreated,
  onClose,
}: CreateInput) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useBotErrorText();
  const freshness = useFreshnessGate();
  const [exists, setExists] = useState<BotExists | null>(null);
  const [alertText, setAlertText] = useState<string | null>(null);
  // A custom strategy refused for want of VIP: the alert links to the VIP page.
  const [needsVip, setNeedsVip] = useState(false);

  const close = () => {
    setExists(null);
    setAlertText(null);
    setNeedsVip(false);
    form.resetFields();
    create.reset();
    onClose();
  };

  const showRefusal = (error: unknown) => {
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
  };

  const submit = async (values: BotFormValues) => {
    setExists(null);
    setAlertText(null);
    setNeedsVip(false);
    const built = buildBotPayload(values);
    const payload = built && presetParameters ? { ...built, parameters: presetParameters } : built;
    const chosen = accounts.find((a) => a.id === values.exchange_api);
    if (!payload || !chosen) return;
    if (!(await freshness.passes(chosen.exchange, payload))) return;

    create.mutate(payload, {
      onSuccess: () => {
        void message.success(t('bots.messages.created'));
        onCreated?.();
        close();
      },
      onError: showRefusal,
    });
  };

  return {
    submit,
    close,
    isSubmitting: freshness.isChecking || create.isPending,
    exists,
    alertText,
    needsVip,
  };
}
