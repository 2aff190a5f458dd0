import {
  CODE_COOLDOWN_SECONDS,
  CODE_LENGTH,
  ERROR_CODES,
  GOOGLE_PROMPT_DELAY_MS,
  POST_LOGIN_REDIRECT_MS,
} from '@quantsquare/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, type FormInstance, Input, Space, Tabs, Typography } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { authApi, authKeys, useLogin, useSendCode } from '../api/auth';
import { apiErrorBody, errorMessage } from '../api/errors';
import { AuthCard } from '../features/auth/AuthCard';
import { FlashAlert } from '../features/auth/FlashAlert';
import { GoogleAuthPrompt } from '../features/auth/GoogleAuthPrompt';
import { PhoneInput } from '../features/auth/PhoneInput';
import { registerUrlFor } from '../features/auth/register-link';
import { SendCodeButton } from '../features/auth/SendCodeButton';
import { useCountdown } from '../features/auth/use-countdown';
import { useFlash } from '../features/auth/use-flash';

type LoginMode = 'email' | 'phone';

interface LoginValues {
  email?: string;
  password?: string;
  email_code?: string;
  phone?: string;
  code?: string;
  google_code?: string;
}

const trimmed = (value: string | undefined) => value?.trim() ?? '';

type LoginRequest = Parameters<ReturnType<typeof useLogin>['mutate']>[0];

/** The login call for the form's values, or null when a field it needs is empty. */
function loginRequestOf(
  mode: LoginMode,
  values: LoginValues,
  needsGoogleCode: boolean,
): LoginRequest | null {
  const googleCode = trimmed(values.google_code);
  if (needsGoogleCode && !googleCode) return null;
  const google = needsGoogleCode ? { google_code: googleCode } : {};
  if (mode === 'email') {
    const email = trimmed(values.email);
    const emailCode = trimmed(values.email_code);
    if (!email || !values.password || !emailCode) return null;
    return {
      mode: 'email',
      body: { email, password: values.password, email_code: emailCode, ...google },
    };
  }
  const phone = trimmed(values.phone);
  const code = trimmed(values.code);
  if (!phone || !code) return null;
  return { mode: 'phone', body: { phone, code, ...google } };
}

/** The fields of the chosen tab, and the Google code once the server asks for it. */
function LoginFields({
  mode,
  needsGoogleCode,
  codeInput,
}: {
  mode: LoginMode;
  needsGoogleCode: boolean;
  codeInput: (name: 'email_code' | 'code', placeholder: string) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      {mode === 'email' ? (
        <>
          <Form.Item name="email" label={t('login.email')} required>
            <Input type="email" autoComplete="email" placeholder={t('login.emailPlaceholder')} />
          </Form.Item>
          <Form.Item name="password" label={t('login.password')} required>
            <Input.Password
              autoComplete="current-password"
              placeholder={t('login.passwordPlaceholder')}
            />
          </Form.Item>
          <Form.Item label={t('login.emailCode')} htmlFor="login_email_code" required>
            {codeInput('email_code', t('login.emailCodePlaceholder'))}
          </Form.Item>
        </>
      ) : (
        <>
          <Form.Item name="phone" label={t('login.phone')} required>
            <PhoneInput placeholder={t('login.phonePlaceholder')} />
          </Form.Item>
          <Form.Item label={t('login.smsCode')} htmlFor="login_code" required>
            {codeInput('code', t('login.smsCodePlaceholder'))}
          </Form.Item>
        </>
      )}
      {needsGoogleCode && (
        <Form.Item name="google_code" label={t('login.googleCode')} required>
          <Input
            maxLength={CODE_LENGTH}
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            placeholder={t('login.googleCodePlaceholder')}
            data-testid="login-google-code"
          />
        </Form.Item>
      )}
    </>
  );
}

/** Links to registration and to the password reset, under the form. */
function LoginLinks() {
  const { t } = useTranslation();
  return (
    <Typography.Paragraph type="secondary" style={{ textAlign: 'center', marginBottom: 0 }}>
      {t('login.noAccount')} <Link to="/register">{t('login.goRegister')}</Link>
      {' · '}
      <Link to="/reset-password" data-testid="login-forgot-password">
        {t('login.forgotPassword')}
      </Link>
    </Typography.Paragraph>
  );
}

/**
 * After a login: a user without 2FA is offered it (after a moment); everyone else is sent to the
 * dashboard, with a word first.
 */
function usePostLogin(setFlash: ReturnType<typeof useFlash>['setFlash']) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isPromptOpen, setPromptOpen] = useState(false);
  const [isFinishing, setFinishing] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const finishLogin = async () => {
    setFinishing(true);
    setFlash({ type: 'success', text: t('login.success') });
    try {
      const security = await queryClient.fetchQuery({
        queryKey: authKeys.security(),
        queryFn: ({ signal }) => authApi.accountSecurity(signal),
      });
      if (!security.google_auth_enabled) {
        timer.current = setTimeout(() => setPromptOpen(true), GOOGLE_PROMPT_DELAY_MS);
        return;
      }
    } catch {
      // Without the security answer there is nothing to prompt about; continue to the dashboard.
    }
    setFlash({ type: 'success', text: t('login.redirecting') });
    timer.current = setTimeout(
      () => navigate('/dashboard', { replace: true }),
      POST_LOGIN_REDIRECT_MS,
    );
  };

  return { finishLogin, isFinishing, isPromptOpen };
}

/** Shown when the session could not be renewed (see App's auth-lost handler). */
function SessionExpiredNotice() {
  const { t } = useTranslation();
  const location = useLocation();
  if ((location.state as { sessionExpired?: boolean } | null)?.sessionExpired !== true) return null;
  return (
    <Alert
      type="warning"
      showIcon
      role="alert"
      title={t('errors.sessionExpired')}
      style={{ marginBottom: 12 }}
      data-testid="login-session-expired"
    />
  );
}

/** The form's message, with a link to register when the account does not exist. */
function LoginFlash({
  flash,
  registerHref,
}: {
  flash: ReturnType<typeof useFlash>['flash'];
  registerHref: string | null;
}) {
  const { t } = useTranslation();
  return (
    <FlashAlert
      flash={flash}
      testId="login-message"
      action={
        registerHref ? (
          <Link to={registerHref} data-testid="login-go-register">
            {t('login.goRegisterNow')}
          </Link>
        ) : undefined
      }
    />
  );
}

/**
 * The login code: sent to the address of the chosen tab, each tab with its own cooldown. An
 * address with no account is offered registration.
 */
function useLoginCode(
  mode: LoginMode,
  form: FormInstance<LoginValues>,
  setFlash: ReturnType<typeof useFlash>['setFlash'],
  setRegisterHref: (href: string | null) => void,
) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const emailCountdown = useCountdown();
  const phoneCountdown = useCountdown();
  const countdown = mode === 'email' ? emailCountdown : phoneCountdown;
  const sendCode = useSendCode();

  const offerRegistration = (target: string) => {
    const href = registerUrlFor(mode, target);
    setRegisterHref(href);
    modal.confirm({
      title: t('login.notRegisteredTitle'),
      content: t('login.notRegisteredBody'),
      okText: t('login.goRegisterNow'),
      cancelText: t('common.cancel'),
      onOk: () => navigate(href),
    });
  };

  const handleSendCode = () => {
    const target = trimmed(
      mode === 'email' ? form.getFieldValue('email') : form.getFieldValue('phone'),
    );
    setRegisterHref(null);
    if (!target) {
      setFlash({
        type: 'error',
        text: t(mode === 'email' ? 'login.needEmail' : 'login.needPhone'),
      });
      return;
    }
    const activeCountdown = countdown;
    sendCode.mutate(
      { type: mode, target, action: 'login' },
      {
        onSuccess: (answer) => {
          activeCountdown.start(answer.cooldown_seconds || CODE_COOLDOWN_SECONDS);
          setFlash({ type: 'success', text: t('login.codeSent') });
        },
        onError: (error) => {
          const body = apiErrorBody(error);
          if (body?.code === ERROR_CODES.codeCooldown && body.retry_after) {
            activeCountdown.start(body.retry_after);
          }
          setFlash({ type: 'error', text: errorMessage(t, error, t('errors.sendCodeFailed')) });
          if (body?.redirect_to === 'register') offerRegistration(target);
        },
      },
    );
  };

  return { countdown, sendCode, handleSendCode };
}

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<LoginValues>();
  const [mode, setMode] = useState<LoginMode>('email');
  const [needsGoogleCode, setNeedsGoogleCode] = useState(false);
  const [registerHref, setRegisterHref] = useState<string | null>(null);
  const { flash, setFlash, clear } = useFlash();
  const { finishLogin, isFinishing, isPromptOpen } = usePostLogin(setFlash);
  const { countdown, sendCode, handleSendCode } = useLoginCode(
    mode,
    form,
    setFlash,
    setRegisterHref,
  );
  const login = useLogin();
  const email = Form.useWatch('email', form);
  const phone = Form.useWatch('phone', form);
  // Changing the tab clears all fields, messages and the Google code field.
  const changeMode = (next: LoginMode) => {
    setMode(next);
    form.resetFields();
    setNeedsGoogleCode(false);
    setRegisterHref(null);
    clear();
  };

  const handleSubmit = (values: LoginValues) => {
    setRegisterHref(null);
    const request = loginRequestOf(mode, values, needsGoogleCode);
    if (!request) {
      setFlash({ type: 'error', text: t('login.fillAll') });
      return;
    }
    clear();
    login.mutate(request, {
      onSuccess: () => void finishLogin(),
      onError: (error) => {
        const body = apiErrorBody(error);
        if (body?.needs_google_auth || body?.code === ERROR_CODES.googleCodeRequired) {
          setNeedsGoogleCode(true);
          setFlash({ type: 'info', text: t('login.googleRequired') });
          return;
        }
        setFlash({ type: 'error', text: errorMessage(t, error, t('errors.loginFailed')) });
        if (body?.redirect_to === 'register') {
          const target = trimmed(mode === 'email' ? values.email : values.phone);
          setRegisterHref(registerUrlFor(mode, target));
        }
      },
    });
  };

  const codeInput = (name: 'email_code' | 'code', placeholder: string) => (
    <Space.Compact style={{ width: '100%' }}>
      <Form.Item name={name} noStyle>
        <Input
          maxLength={CODE_LENGTH}
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder={placeholder}
        />
      </Form.Item>
      <SendCodeButton
        hasTarget={Boolean(mode === 'email' ? email : phone)}
        secondsLeft={countdown.secondsLeft}
        isSending={sendCode.isPending}
        onSend={handleSendCode}
        testId={mode === 'email' ? 'send-email-code' : 'send-sms-code'}
      />
    </Space.Compact>
  );

  return (
    <AuthCard title={t('login.title')} subtitle={t('login.subtitle')}>
      <SessionExpiredNotice />
      <Tabs
        activeKey={mode}
        onChange={(key) => changeMode(key === 'phone' ? 'phone' : 'email')}
        centered
        items={[
          { key: 'email', label: <span data-testid="login-tab-email">{t('login.tabEmail')}</span> },
          { key: 'phone', label: <span data-testid="login-tab-phone">{t('login.tabPhone')}</span> },
        ]}
      />
      <Form
        form={form}
        name="login"
        layout="vertical"
        onFinish={handleSubmit}
        requiredMark
        autoComplete="on"
      >
        <LoginFields mode={mode} needsGoogleCode={needsGoogleCode} codeInput={codeInput} />
        <LoginFlash flash={flash} registerHref={registerHref} />
        <Form.Item style={{ marginBottom: 12 }}>
          <Button
            type="primary"
            htmlType="submit"
            block
            size="large"
            loading={login.isPending}
            disabled={isFinishing}
            data-testid="login-submit"
          >
            {t('login.submit')}
          </Button>
        </Form.Item>
      </Form>
      <LoginLinks />
      <GoogleAuthPrompt
        open={isPromptOpen}
        onSetup={() => navigate('/my/security', { replace: true })}
        onSkip={() => navigate('/dashboard', { replace: true })}
      />
    </AuthCard>
  );
}
