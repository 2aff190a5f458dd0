import {
  TRADINGVIEW_WEBHOOK_IPS,
  WEBHOOK_ACTIONS,
  WEBHOOK_IP_ALLOWLIST_MAX,
} from '@quantsquare/contracts';
import { Button, Checkbox, Form, type FormInstance, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FormValues } from './config-form-values';
import { looksLikeIp } from './webhook-format';

/** What a signal may do and who may send it: actions, pyramiding, IP allow-list, on/off. */
export function ConfigSafetyFields({ form }: { form: FormInstance<FormValues> }) {
  const { t } = useTranslation();
  return (
    <>
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
    </>
  );
}
