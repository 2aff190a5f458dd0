import type { WebhookConfig } from '@quantsquare/contracts';
import { App, Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errors';
import { useRegenerateWebhookKey } from '../../api/webhooks';
import {
  isStepUpAsked,
  StepUpCodeField,
  stepUpErrorText,
  useHasTwoFactor,
} from '../../shared/forms/StepUpCodeField';

interface Props {
  /** The configuration whose URL is to be replaced; null: closed. */
  config: WebhookConfig | null;
  onClose: () => void;
  onRevealed: (config: WebhookConfig) => void;
}

/**
 * Confirms a new webhook URL (the old one stops at once). A user with 2FA on confirms it with
 * the authenticator code in this dialog; a wrong code is said at the code and nothing changes.
 */
export function RegenerateKeyModal({ config, onClose, onRevealed }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ google_code?: string }>();
  const regenerate = useRegenerateWebhookKey();
  const hasTwoFactor = useHasTwoFactor();
  const [isStepUpForced, setStepUpForced] = useState(false);

  const close = () => {
    form.resetFields();
    onClose();
  };

  const submit = () => {
    if (!config) return;
    form
      .validateFields()
      .then(({ google_code }) =>
        regenerate.mutateAsync({ id: config.id, google_code: google_code?.trim() }),
      )
      .then((answer) => {
        close();
        onRevealed(answer);
      })
      .catch((error: unknown) => {
        // antd's own validation failure: the field says it already.
        if (error && typeof error === 'object' && 'errorFields' in error) return;
        const stepUpText = stepUpErrorText(t, error);
        if (stepUpText !== null) {
          if (isStepUpAsked(error)) setStepUpForced(true);
          form.setFields([{ name: 'google_code', value: '', errors: [stepUpText] }]);
          return;
        }
        close();
        void message.error(errorMessage(t, error, t('webhooks.actionFailed')));
      });
  };

  return (
    <Modal
      open={config !== null}
      title={t('webhooks.confirm.regenerateTitle')}
      okText={t('webhooks.confirm.ok')}
      cancelText={t('webhooks.confirm.cancel')}
      okButtonProps={{ danger: true, loading: regenerate.isPending }}
      onOk={submit}
      onCancel={close}
      maskClosable={false}
      width={440}
      data-testid="webhook-regenerate-dialog"
    >
      <Typography.Paragraph>{t('webhooks.confirm.regenerateBody')}</Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        {(hasTwoFactor || isStepUpForced) && <StepUpCodeField />}
      </Form>
    </Modal>
  );
}
