import {
  DEFAULT_TIMEFRAME,
  type ExchangeApi,
  TIMEFRAMES,
  TRADE_AMOUNT_DEFAULT,
} from '@quantsquare/contracts';
import { Alert, Button, Form, Modal, Select, theme } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useExchangeApis } from '../../api/accounts';
import { useCreateBot } from '../../api/bots';
import { useStrategies, useSymbols } from '../../api/trading';
import { accountName } from '../../shared/format/account-format';
import {
  type BotFormValues,
  type BotPreset,
  strategyParameterLabel,
} from '../../shared/format/bot-format';
import { BotExistsAlert } from './BotExistsAlert';
import { BotSizeFields } from './BotSizeFields';
import { useBotCreate, useBotFormDefaults } from './use-bot-create';

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

function requiredRule(t: TFunction, field: string) {
  return { required: true, message: t('bots.form.required', { field }) };
}

/** The account and strategy choices, a note when there is no account, a preset's parameters. */
function BotAccountFields({
  accounts,
  isAccountsPending,
  strategies,
  isStrategiesPending,
  presetParameters,
}: {
  accounts: readonly ExchangeApi[];
  isAccountsPending: boolean;
  strategies: readonly { id: number; name: string }[];
  isStrategiesPending: boolean;
  presetParameters: Record<string, number> | undefined;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <>
      {!isAccountsPending && accounts.length === 0 && (
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
        rules={[requiredRule(t, t('bots.form.account'))]}
      >
        <Select
          data-testid="bot-form-account"
          placeholder={t('bots.form.accountPlaceholder')}
          loading={isAccountsPending}
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
        rules={[requiredRule(t, t('bots.form.strategy'))]}
      >
        <Select
          data-testid="bot-form-strategy"
          placeholder={t('bots.form.strategyPlaceholder')}
          loading={isStrategiesPending}
          options={strategies.map((s) => ({ value: s.id, label: s.name }))}
        />
      </Form.Item>
      {presetParameters && (
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
    </>
  );
}

/** The symbol (of the chosen account's exchange) and the timeframe, side by side. */
function BotMarketFields({
  symbols,
  isPending,
}: {
  symbols: readonly string[];
  isPending: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'grid', gap: '0 12px', gridTemplateColumns: '2fr 1fr' }}>
      <Form.Item
        name="symbol"
        label={t('bots.form.symbol')}
        rules={[requiredRule(t, t('bots.form.symbol'))]}
      >
        <Select
          data-testid="bot-form-symbol"
          showSearch
          placeholder={t('bots.form.symbolPlaceholder')}
          loading={isPending}
          options={symbols.map((s) => ({ value: s, label: s }))}
        />
      </Form.Item>
      <Form.Item
        name="timeframe"
        label={t('bots.form.timeframe')}
        rules={[requiredRule(t, t('bots.form.timeframe'))]}
      >
        <Select
          data-testid="bot-form-timeframe"
          options={TIMEFRAMES.map((tf) => ({ value: tf, label: tf }))}
        />
      </Form.Item>
    </div>
  );
}

/** A refused create's text, with the way to VIP when that is what it wants. */
function BotCreateError({ text, needsVip }: { text: string; needsVip: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      title={text}
      description={
        needsVip ? (
          <Link to="/my/profile" style={{ color: token.colorLink }}>
            {t('bots.server.getVip')}
          </Link>
        ) : undefined
      }
      data-testid="bot-form-error"
    />
  );
}

/** The Configure Trading Bot dialog (document 1 §2, §4 stale data, §5 bot form, §8 texts). */
export function BotCreateModal({ open, onClose, initialAccountId, onCreated, preset }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BotFormValues>();
  const apis = useExchangeApis();
  const strategies = useStrategies();
  const create = useCreateBot();

  const accounts = apis.data?.results ?? [];
  const hasAccount = accounts.length > 0;
  const accountId = Form.useWatch('exchange_api', form);
  const account = accounts.find((a) => a.id === accountId) ?? accounts[0];
  const exchange = account?.exchange ?? 'binance';
  const symbols = useSymbols(exchange);
  const symbolList = symbols.data?.symbols ?? [];
  const strategyList = strategies.data?.results ?? [];
  const presetParameters = useBotFormDefaults({
    open,
    form,
    accounts,
    initialAccountId,
    strategyList,
    symbolList,
    preset,
  });
  const flow = useBotCreate({ form, accounts, presetParameters, create, onCreated, onClose });

  return (
    <Modal
      open={open}
      title={t('bots.form.title')}
      onCancel={flow.close}
      destroyOnHidden
      footer={null}
      width={520}
    >
      <Form<BotFormValues>
        form={form}
        layout="vertical"
        initialValues={INITIAL_VALUES}
        onFinish={(values) => void flow.submit(values)}
        requiredMark={false}
        style={{ marginTop: 12 }}
      >
        <BotAccountFields
          accounts={accounts}
          isAccountsPending={apis.isPending}
          strategies={strategyList}
          isStrategiesPending={strategies.isPending}
          presetParameters={presetParameters}
        />
        <BotMarketFields symbols={symbolList} isPending={symbols.isPending} />
        <BotSizeFields />
        {flow.exists && <BotExistsAlert exists={flow.exists} />}
        {flow.alertText && <BotCreateError text={flow.alertText} needsVip={flow.needsVip} />}
        <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8 }}>
          <Button onClick={flow.close} autoInsertSpace={false}>
            {t('bots.form.cancel')}
          </Button>
          <Button
            type="primary"
            htmlType="submit"
            loading={flow.isSubmitting}
            disabled={flow.isSubmitting || !hasAccount}
            data-testid="bot-form-submit"
          >
            {t('bots.form.submit')}
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
