import {
  CODE_COOLDOWN_SECONDS,
  CODE_LENGTH,
  ERROR_CODES,
  EXPERIENCE_ACCOUNT_BALANCE,
  INVITATION_CODE_MAX_LENGTH,
  REGISTER_NOTICE_MS,
} from '@quantsquare/contracts';
import { Button, Form, type FormInstance, Input, Space, Tabs, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useRegister, useSendCode } from '../api/auth';
import { apiErrorBody, errorMessage } from '../api/errors';
import { fieldErrors } from '../api/field-errors';
import { showShellNotice } from '../app/shell/shell-notice';
import { AuthCard } from '../features/auth/AuthCard';
import { FlashAlert } from '../features/auth/FlashAlert';
import { NewPasswordFields } from '../features/auth/NewPasswordFields';
import { PhoneInput } from '../features/auth/PhoneInput';
import { SendCodeButton } from '../features/auth/SendCodeButton';
import { useCountdown } from '../features/auth/use-countdown';
import { useFlash } from '../features/auth/use-flash';
import { formatGrouped } from '../shared/format/money';

type RegisterMode = 'email' | 'phone';

interface RegisterValues {
  email?: string;
  phone?: string;
  code?: string;
  password?: string;
  password2?: string;
  invitation_code?: string;
}

const FORM_FIELDS: Record<RegisterMode, readonly (keyof RegisterValues)[]> = {
  email: ['email', 'password', 'password2', 'invitation_code'],
  phone: ['phone', 'code', 'password', 'password2', 'invitation_code'],
};

type RegisterRequest = Parameters<ReturnType<typeof useRegister>['mutate']>[0];

/** The register call for the form's values (the form's rules have checked them). */
function registerRequestOf(mode: RegisterMode, values: RegisterValues): RegisterRequest {
  const password = values.password ?? '';
  const password2 = values.password2 ?? '';
  const invitation = values.invitation_code?.trim() || undefined;
  return mode === 'email'
    ? {
        mode: 'email',
        body: {
          email: values.email?.trim() ?? '',
          password,
          password2,
          invitation_code: invitation,
        },
      }
    : {
        mode: 'phone',
        body: {
          phone: values.phone?.trim() ?? '',
          code: values.code?.trim() ?? '',
          password,
          password2,
          invitation_code: invitation,
        },
      };
}

/** The e-mail address, or the phone number and its SMS code. */
function AddressFields({
  mode,
  required,
  sendCodeButton,
}: {
  mode: RegisterMode;
  required: Rule;
  sendCodeButton: ReactNode;
}) {
  const { t } = useTranslation();
  return mode === 'email' ? (
    <Form.Item
      name="email"
      label={t('register.email')}
      rules={[required, { type: 'email', message: t('register.invalidEmail') }]}
    >
      <Input type="email" autoComplete="email" placeholder={t('register.emailPlaceholder')} />
    </Form.Item>
  ) : (
    <>
      <Form.Item name="phone" label={t('register.phone')} rules={[required]}>
        <PhoneInput placeholder={t('register.phonePlaceholder')} />
      </Form.Item>
      <Form.Item label={t('register.smsCode')} htmlFor="register_code" required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item
            name="code"
            noStyle
            rules={[
              required,
              {
                len: CODE_LENGTH,
                message: t('register.codeLength', { length: CODE_LENGTH }),
              },
            ]}
          >
            <Input
              maxLength={CODE_LENGTH}
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder={t('register.smsCodePlaceholder')}
            />
          </Form.Item>
          {sendCodeButton}
        </Space.Compact>
      </Form.Item>
    </>
  );
}

/** The password twice, and the optional invitation code. */
function PasswordFields({ required }: { required: Rule }) {
  const { t } = useTranslation();
  return (
    <>
      <NewPasswordFields
        required={required}
        labels={{ password: t('register.password'), password2: t('register.password2') }}
      />
      <Form.Item name="invitation_code" label={t('register.invitationCode')}>
        <Input
          maxLength={INVITATION_CODE_MAX_LENGTH}
          placeholder={t('register.invitationCodePlaceholder')}
        />
      </Form.Item>
    </>
  );
}

type Flash = ReturnType<typeof useFlash>;

/** The SMS code of a phone registration, with its cooldown. */
function useRegisterCode(form: FormInstance<RegisterValues>, setFlash: Flash['setFlash']) {
  const { t } = useTranslation();
  const countdown = useCountdown();
  const sendCode = useSendCode();

  const handleSendCode = () => {
    const target = form.getFieldValue('phone')?.trim() ?? '';
    if (!target) {
      setFlash({ type: 'error', text: t('login.needPhone') });
      return;
    }
    sendCode.mutate(
      { type: 'phone', target, action: 'register' },
      {
        onSuccess: (answer) => {
          countdown.start(answer.cooldown_seconds || CODE_COOLDOWN_SECONDS);
          setFlash({ type: 'success', text: t('register.codeSent') });
        },
        onError: (error) => {
          const body = apiErrorBody(error);
          if (body?.code === ERROR_CODES.codeCooldown && body.retry_after)
            countdown.start(body.retry_after);
          const perField = fieldErrors(t, error);
          if (perField.target) form.setFields([{ name: 'phone', errors: [perField.target] }]);
          setFlash({
            type: 'error',
            text: perField.target ?? errorMessage(t, error, t('errors.sendCodeFailed')),
          });
        },
      },
    );
  };

  return { countdown, sendCode, handleSendCode };
}

/**
 * The registration: on success to the security page (signed in) or to the login; a refusal's
 * field errors go under their fields, the rest above the button.
 */
function useRegisterSubmit(
  mode: RegisterMode,
  form: FormInstance<RegisterValues>,
  setFlash: Flash['setFlash'],
  clear: Flash['clear'],
) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const register = useRegister();

  const handleSubmit = (values: RegisterValues) => {
    clear();
    const request = registerRequestOf(mode, values);
    register.mutate(request, {
      onSuccess: (answer) => {
        if (answer.auto_login) {
          // The notice belongs to the shell: it stays on /my/security for its 5 s (document 1
          // §2), after this screen has gone.
          showShellNotice({
            type: 'success',
            title: t('register.successTitle'),
            description: t('register.successBody', {
              balance: formatGrouped(EXPERIENCE_ACCOUNT_BALANCE, i18n.language),
            }),
            testId: 'register-success-notice',
            durationMs: REGISTER_NOTICE_MS,
          });
          navigate('/my/security', { replace: true });
          return;
        }
        setFlash({ type: 'success', text: t('register.successTitle') });
        navigate('/login', { replace: true });
      },
      onError: (error) => {
        const perField = fieldErrors(t, error);
        const shown = FORM_FIELDS[mode].filter((name) => perField[name]);
        form.setFields(shown.map((name) => ({ name, errors: [perField[name] ?? ''] })));
        const unshown = Object.entries(perField)
          .filter(([name]) => !shown.includes(name as keyof RegisterValues))
          .map(([, text]) => text);
        if (shown.length === 0 || unshown.length > 0) {
          setFlash({
            type: 'error',
            text: unshown[0] ?? errorMessage(t, error, t('errors.registerFailed')),
          });
        }
      },
    });
  };

  return { register, handleSubmit };
}

export function RegisterPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const [form] = Form.useForm<RegisterValues>();
  const [mode, setMode] = useState<RegisterMode>(() =>
    searchParams.get('type') === 'phone' ||
    (!searchParams.get('email') && searchParams.get('phone'))
      ? 'phone'
      : 'email',
  );
  const { flash, setFlash, clear } = useFlash();
  const { countdown, sendCode, handleSendCode } = useRegisterCode(form, setFlash);
  const { register, handleSubmit } = useRegisterSubmit(mode, form, setFlash, clear);
  const phone = Form.useWatch('phone', form);

  const required: Rule = { required: true, whitespace: true, message: t('register.required') };

  const changeMode = (next: RegisterMode) => {
    setMode(next);
    clear();
    form.setFields(
      (['email', 'phone', 'code', 'password', 'password2', 'invitation_code'] as const).map(
        (name) => ({
          name,
          errors: [],
        }),
      ),
    );
  };

  return (
    <AuthCard title={t('register.title')} subtitle={t('register.subtitle')}>
      <Tabs
        activeKey={mode}
        onChange={(key) => changeMode(key === 'phone' ? 'phone' : 'email')}
        centered
        items={[
          {
            key: 'email',
            label: <span data-testid="register-tab-email">{t('register.tabEmail')}</span>,
          },
          {
            key: 'phone',
            label: <span data-testid="register-tab-phone">{t('register.tabPhone')}</span>,
          },
        ]}
      />
      <Form
        form={form}
        name="register"
        layout="vertical"
        onFinish={handleSubmit}
        initialValues={{
          email: searchParams.get('email') ?? '',
          phone: searchParams.get('phone') ?? '',
        }}
      >
        <AddressFields
          mode={mode}
          required={required}
          sendCodeButton={
            <SendCodeButton
              hasTarget={Boolean(phone)}
              secondsLeft={countdown.secondsLeft}
              isSending={sendCode.isPending}
              onSend={handleSendCode}
              testId="send-register-sms-code"
            />
          }
        />
        <PasswordFields required={required} />
        <FlashAlert flash={flash} testId="register-message" />
        <Form.Item style={{ marginBottom: 12 }}>
          <Button
            type="primary"
            htmlType="submit"
            block
            size="large"
            loading={register.isPending}
            data-testid="register-submit"
          >
            {t('register.submit')}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center', marginBottom: 0 }}>
        {t('register.haveAccount')} <Link to="/login">{t('register.goLogin')}</Link>
      </Typography.Paragraph>
    </AuthCard>
  );
}
