import '../../i18n/accounts-texts';
import type { WebhookConfig } from '@quantsquare/contracts';
import { Alert, Button, Form, Modal, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useExchangeApis } from '../../api/accounts';
import { errorMessage } from '../../api/errors';
import { useCreateWebhookConfig, useUpdateWebhookConfig } from '../../api/webhooks';
import { ConfigMarketFields } from './ConfigMarketFields';
import { ConfigSafetyFields } from './ConfigSafetyFields';
import { ConfigSizeFields } from './ConfigSizeFields';
import { bodyOf, FIELDS, type FormValues, NEW_VALUES, valuesOf } from './config-form-values';
import { webhookFieldErrors } from './webhook-errors';

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
        <ConfigMarketFields
          accounts={accounts}
          isLoadingAccounts={apis.isPending}
          symbolMode={symbolMode}
        />
        <ConfigSizeFields />
        <ConfigSafetyFields form={form} />
      </Form>
    </Modal>
  );
}
