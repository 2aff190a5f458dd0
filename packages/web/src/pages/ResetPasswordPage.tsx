import {
  CODE_COOLDOWN_SECONDS,
  CODE_LENGTH,
  ERROR_CODES,
  POST_LOGIN_REDIRECT_MS,
} from '@quantsquare/contracts';
import { Button, Form, type FormInstance, Input, Space, Tabs, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useResetPassword, useSendCode } from '../api/auth';
import { apiErrorBody, errorMessage } from '../api/errors';
import { fieldErrors } from '../api/field-errors';
import { AuthCard } from '../features/auth/AuthCard';
import { FlashAlert } from '../features/auth/FlashAlert';
import { NewPasswordFields } from '../features/auth/NewPasswordFields';
import { SendCodeButton } from '../features/auth/SendCodeButton';
import { useCountdown } from '../features/auth/use-countdown';
import { useFlash } from '../features/auth/use-flash';

type ResetMode = 'email' | 'phone';

interface ResetValues {
  target?: string;
  code?: string;
  password?: string;
  password2?: string;
}

const FORM_FIELDS: readonly (keyof ResetValues)[] = ['target', 'code', 'password', 'password2'];

/** The e-mail address or the phone number of the account. */
function ResetTargetField({ mode, required }: { mode: ResetMode; required: Rule }) {
  const { t } = useTranslation();
  return mode === 'email' ? (
    <Form.Item
      name="target"
      label={t('login.email')}
      rules={[required, { type: 'email', message: t('register.invalidEmail') }]}
    >
      <Input type="email" autoComplete="email" placeholder={t('login.emailPlaceholder')} />
    </Form.Item>
  ) : (
    <Form.Item name="target" label={t('login.phone')} rules={[required]}>
      <Input type="tel" autoComplete="tel" placeholder={t('login.phonePlaceholder')} />
    </Form.Item>
  );
}

/**
 * The code to the chosen address (each tab with its own cooldown), then the new password; on
 * success to the login page. A refusal's field errors go under their fields, the rest above.
 */
function useReset(
  mode: ResetMode,
  form: FormInstance<ResetValues>,
  setFlash: ReturnType<typeof useFlash>['setFlash'],
  clear: () => void,
) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [isDone, setDone] = useState(false);
  const emailCountdown = useCountdown();
  const phoneCountdown = useCountdown();
  const countdown = mode === 'email' ? emailCountdown : phoneCountdown;
  const sendCode = useSendCode();
  const reset = useResetPassword();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  /** Puts the answer's field errors under their fields; answers how many and the others. */
  const showFieldErrors = (error: unknown) => {
    const perField = fieldErrors(t, error);
    const shown = FORM_FIELDS.filter((name) => perField[name]);
    form.setFields(shown.map((name) => ({ name, errors: [perField[name] ?? ''] })));
    const unshown = Object.entries(perField)
      .filter(([name]) => !shown.includes(name as keyof ResetValues))
      .map(([, text]) => text);
    return { shownCount: shown.length, unshown };
  };

  const handleSendCode = () => {
    const value = form.getFieldValue('target')?.trim() ?? '';
    if (!value) {
      setFlash({
        type: 'error',
        text: t(mode === 'email' ? 'login.needEmail' : 'login.needPhone'),
      });
      return;
    }
    const activeCountdown = countdown;
    sendCode.mutate(
      { type: mode, target: value, action: 'reset_password' },
      {
        onSuccess: (answer) => {
          activeCountdown.start(answer.cooldown_seconds || CODE_COOLDOWN_SECONDS);
          setFlash({ type: 'success', text: t('resetPassword.codeSent') });
        },
        onError: (error) => {
          const body = apiErrorBody(error);
          if (body?.code === ERROR_CODES.codeCooldown && body.retry_after) {
            activeCountdown.start(body.retry_after);
          }
          const { unshown } = showFieldErrors(error);
          setFlash({
            type: 'error',
            text: unshown[0] ?? errorMessage(t, error, t('errors.sendCodeFailed')),
          });
        },
      },
    );
  };

  const handleSubmit = (values: ResetValues) => {
    clear();
    reset.mutate(
      {
        type: mode,
        target: values.target?.trim() ?? '',
        code: values.code?.trim() ?? '',
        password: values.password ?? '',
        password2: values.password2 ?? '',
      },
      {
        onSuccess: () => {
          setDone(true);
          setFlash({ type: 'success', text: t('resetPassword.success') });
          timer.current = setTimeout(
            () => navigate('/login', { replace: true }),
            POST_LOGIN_REDIRECT_MS,
          );
        },
        onError: (error) => {
          const { shownCount, unshown } = showFieldErrors(error);
          if (shownCount === 0 || unshown.length > 0) {
            setFlash({
              type: 'error',
              text: unshown[0] ?? errorMessage(t, error, t('resetPassword.failed')),
            });
          }
        },
      },
    );
  };

  return { countdown, sendCode, handleSendCode, reset, handleSubmit, isDone };
}

/** A forgotten password: a code to the account's e-mail or phone, then the new password. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ResetValues>();
  const [mode, setMode] = useState<ResetMode>('email');
  const { flash, setFlash, clear } = useFlash();
  const { countdown, sendCode, handleSendCode, reset, handleSubmit, isDone } = useReset(
    mode,
    form,
    setFlash,
    clear,
  );
  const target = Form.useWatch('target', form);

  const required: Rule = { required: true, whitespace: true, message: t('register.required') };

  const changeMode = (next: ResetMode) => {
    setMode(next);
    form.resetFields();
    clear();
  };

  return (
    <AuthCard title={t('resetPassword.title')} subtitle={t('resetPassword.subtitle')}>
      <Tabs
        activeKey={mode}
        onChange={(key) => changeMode(key === 'phone' ? 'phone' : 'email')}
        centered
        items={[
          {
            key: 'email',
            label: <span data-testid="reset-tab-email">{t('resetPassword.tabEmail')}</span>,
          },
          {
            key: 'phone',
            label: <span data-testid="reset-tab-phone">{t('resetPassword.tabPhone')}</span>,
          },
        ]}
      />
      <Form form={form} name="reset" layout="vertical" onFinish={handleSubmit}>
        <ResetTargetField mode={mode} required={required} />
        <Form.Item label={t('resetPassword.code')} htmlFor="reset_code" required>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item
              name="code"
              noStyle
              rules={[
                required,
                { len: CODE_LENGTH, message: t('register.codeLength', { length: CODE_LENGTH }) },
              ]}
            >
              <Input
                maxLength={CODE_LENGTH}
                inputMode="numeric"
                autoComplete="one-time-code"
                placeholder={t('login.emailCodePlaceholder')}
              />
            </Form.Item>
            <SendCodeButton
              hasTarget={Boolean(target)}
              secondsLeft={countdown.secondsLeft}
              isSending={sendCode.isPending}
              onSend={handleSendCode}
              testId="send-reset-code"
            />
          </Space.Compact>
        </Form.Item>
        <NewPasswordFields
          required={required}
          labels={{
            password: t('resetPassword.password'),
            password2: t('resetPassword.password2'),
          }}
        />
        <FlashAlert flash={flash} testId="reset-message" />
        <Form.Item style={{ marginBottom: 12 }}>
          <Button
            type="primary"
            htmlType="submit"
            block
            size="large"
            loading={reset.isPending}
            disabled={isDone}
            data-testid="reset-submit"
          >
            {t('resetPassword.submit')}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center', marginBottom: 0 }}>
        {t('resetPassword.remembered')} <Link to="/login">{t('resetPassword.backToLogin')}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
