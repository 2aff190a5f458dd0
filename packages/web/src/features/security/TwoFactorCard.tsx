import type { AccountSecurity, TwoFactorEnableResponse } from '@quantsquare/contracts';
import { CODE_LENGTH } from '@quantsquare/contracts';
import {
  Alert,
  App,
  Button,
  Card,
  Flex,
  Form,
  type FormInstance,
  Input,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDisableTwoFactor, useEnableTwoFactor, useVerifyTwoFactor } from '../../api/auth';
import { errorMessage } from '../../api/errors';

interface CodeValues {
  google_code: string;
}

/** Spec fallback: a rejected code shows 'Invalid verification code'. */
function codeFailureText(
  t: ReturnType<typeof useTranslation>['t'],
  error: unknown,
  fallback: string,
): string {
  return errorMessage(t, error, fallback);
}

/** The authenticator code, six digits. */
function CodeItem({ testId }: { testId: string }) {
  const { t } = useTranslation();
  const codeRules = [
    { required: true, message: t('security.codeLength') },
    { pattern: new RegExp(`^\\d{${CODE_LENGTH}}$`), message: t('security.codeLength') },
  ];
  return (
    <Form.Item name="google_code" label={t('security.code')} rules={codeRules}>
      <Input
        maxLength={CODE_LENGTH}
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder={t('security.codePlaceholder')}
        style={{ width: 160 }}
        data-testid={testId}
      />
    </Form.Item>
  );
}

/** The new key to scan: its QR code, and the secret to type instead. */
function SetupKey({ setup }: { setup: TwoFactorEnableResponse }) {
  const { t } = useTranslation();
  return (
    <Flex gap={24} wrap align="center">
      <img
        src={setup.qr_code}
        alt={t('security.qrAlt')}
        width={180}
        height={180}
        style={{ background: '#fff', padding: 8, borderRadius: 8 }}
        data-testid="2fa-qr"
      />
      <Space orientation="vertical" size={4} style={{ minWidth: 0, maxWidth: '100%' }}>
        <Typography.Text type="secondary">{t('security.secret')}</Typography.Text>
        <Typography.Text
          code
          copyable={{ text: setup.secret }}
          style={{ wordBreak: 'break-all' }}
          data-testid="2fa-secret"
        >
          {setup.secret}
        </Typography.Text>
      </Space>
    </Flex>
  );
}

/** Turning 2FA on (a new key, then a code to confirm it) and off (a code, then a confirmation). */
function useTwoFactorActions(
  verifyForm: FormInstance<CodeValues>,
  disableForm: FormInstance<CodeValues>,
) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [setup, setSetup] = useState<TwoFactorEnableResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const enable = useEnableTwoFactor();
  const verify = useVerifyTwoFactor();
  const disable = useDisableTwoFactor();

  const startSetup = () => {
    setError(null);
    enable.mutate(undefined, {
      onSuccess: (answer) => setSetup(answer),
      onError: (e) => setError(codeFailureText(t, e, t('security.enableFailed'))),
    });
  };

  const finishSetup = ({ google_code }: CodeValues) => {
    setError(null);
    verify.mutate(
      { google_code: google_code.trim() },
      {
        onSuccess: () => {
          setSetup(null);
          verifyForm.resetFields();
          void message.success(t('security.enabledSuccess'));
        },
        onError: (e) => setError(codeFailureText(t, e, t('security.invalidCode'))),
      },
    );
  };

  const confirmDisable = ({ google_code }: CodeValues) => {
    setError(null);
    modal.confirm({
      title: t('security.disableConfirmTitle'),
      content: t('security.disableConfirmBody'),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, 'data-testid': '2fa-disable-confirm' },
      onOk: () =>
        disable
          .mutateAsync({ google_code: google_code.trim() })
          .then(() => {
            disableForm.resetFields();
            void message.success(t('security.disabledSuccess'));
          })
          .catch((e: unknown) => setError(codeFailureText(t, e, t('security.disableFailed')))),
    });
  };

  return {
    setup,
    setSetup,
    error,
    enable,
    verify,
    disable,
    startSetup,
    finishSetup,
    confirmDisable,
  };
}

export function TwoFactorCard({ security }: { security: AccountSecurity }) {
  const { t } = useTranslation();
  const [verifyForm] = Form.useForm<CodeValues>();
  const [disableForm] = Form.useForm<CodeValues>();
  const {
    setup,
    setSetup,
    error,
    enable,
    verify,
    disable,
    startSetup,
    finishSetup,
    confirmDisable,
  } = useTwoFactorActions(verifyForm, disableForm);
  const isEnabled = security.google_auth_enabled;

  return (
    <Card
      title={t('security.twoFactorTitle')}
      styles={{ title: { whiteSpace: 'normal' } }}
      extra={
        <Tag
          color={isEnabled ? 'success' : 'default'}
          data-testid="2fa-status"
          data-enabled={isEnabled}
        >
          {isEnabled ? t('security.statusEnabled') : t('security.statusDisabled')}
        </Tag>
      }
    >
      <Typography.Paragraph type="secondary">{t('security.twoFactorDesc')}</Typography.Paragraph>
      {error && (
        <Alert
          type="error"
          title={error}
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="2fa-error"
        />
      )}

      {!isEnabled && !setup && (
        <Button
          type="primary"
          onClick={startSetup}
          loading={enable.isPending}
          data-testid="2fa-enable"
        >
          {t('security.enable')}
        </Button>
      )}

      {!isEnabled && setup && (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Text>{t('security.step1')}</Typography.Text>
          <SetupKey setup={setup} />
          <Typography.Text>{t('security.step2')}</Typography.Text>
          <Form
            form={verifyForm}
            name="twofa_verify"
            layout="inline"
            onFinish={finishSetup}
            style={{ rowGap: 12 }}
          >
            <CodeItem testId="2fa-verify-code" />
            <Form.Item>
              <Space>
                <Button
                  type="primary"
                  htmlType="submit"
                  loading={verify.isPending}
                  data-testid="2fa-verify-submit"
                >
                  {t('security.verify')}
                </Button>
                <Button onClick={() => setSetup(null)}>{t('security.cancelSetup')}</Button>
              </Space>
            </Form.Item>
          </Form>
        </Space>
      )}

      {isEnabled && (
        <Space orientation="vertical" size="small" style={{ width: '100%' }}>
          <Typography.Text>{t('security.disableHint')}</Typography.Text>
          <Form
            form={disableForm}
            name="twofa_disable"
            layout="inline"
            onFinish={confirmDisable}
            style={{ rowGap: 12 }}
          >
            <CodeItem testId="2fa-disable-code" />
            <Form.Item>
              <Button
                danger
                htmlType="submit"
                loading={disable.isPending}
                data-testid="2fa-disable"
              >
                {t('security.disable')}
              </Button>
            </Form.Item>
          </Form>
        </Space>
      )}
    </Card>
  );
}
