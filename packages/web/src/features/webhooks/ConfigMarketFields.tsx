import type { ExchangeApi } from '@quantsquare/contracts';
import { WEBHOOK_NAME_MAX_LENGTH } from '@quantsquare/contracts';
import { Alert, Form, Input, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { accountName } from '../../shared/format/account-format';

/** The configuration's name, the account it trades on and where the symbol comes from. */
export function ConfigMarketFields({
  accounts,
  isLoadingAccounts,
  symbolMode,
}: {
  accounts: readonly ExchangeApi[];
  isLoadingAccounts: boolean;
  symbolMode: 'fixed' | 'alert' | undefined;
}) {
  const { t } = useTranslation();
  const experienceName = t('apis.experienceName');
  return (
    <>
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
          loading={isLoadingAccounts}
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
    </>
  );
}
