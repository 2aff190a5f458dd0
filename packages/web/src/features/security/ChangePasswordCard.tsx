import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@quantsquare/contracts';
import { Alert, App, Button, Card, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useChangePassword } from '../../api/auth';
import { errorMessage } from '../../api/errors';
import { fieldErrors } from '../../api/field-errors';

interface PasswordValues {
  old_password: string;
  new_password: string;
  confirm_password: string;
}

export function ChangePasswordCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordValues>();
  const [error, setError] = useState<string | null>(null);
  const changePassword = useChangePassword();
  const required = { required: true, message: t('register.required') };

  const submit = (values: PasswordValues) => {
    setError(null);
    changePassword.mutate(
      { old_password: values.old_password, new_password: values.new_password },
      {
        onSuccess: () => {
          form.resetFields();
          void message.success(t('security.passwordChanged'));
        },
        onError: (e) => {
          const perField = fieldErrors(t, e);
          const names = (['old_password', 'new_password'] as const).filter(
            (name) => perField[name],
          );
          form.setFields(names.map((name) => ({ name, errors: [perField[name] ?? ''] })));
          if (names.length === 0) setError(errorMessage(t, e, t('security.changePasswordFailed')));
        },
      },
    );
  };

  return (
    <Card title={t('security.passwordTitle')}>
      <Form
        form={form}
        name="change_password"
        layout="vertical"
        onFinish={submit}
        style={{ maxWidth: 420 }}
      >
        <Form.Item name="old_password" label={t('security.oldPassword')} rules={[required]}>
          <Input.Password autoComplete="current-password" maxLength={PASSWORD_MAX_LENGTH} />
        </Form.Item>
        <Form.Item
          name="new_password"
          label={t('security.newPassword')}
          rules={[
            required,
            {
              min: PASSWORD_MIN_LENGTH,
              message: t('register.passwordTooShort', { min: PASSWORD_MIN_LENGTH }),
            },
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} />
        </Form.Item>
        <Form.Item
          name="confirm_password"
          label={t('security.confirmPassword')}
          dependencies={['new_password']}
          rules={[
            required,
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || getFieldValue('new_password') === value
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('register.passwordMismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} />
        </Form.Item>
        {error && (
          <Alert
            type="error"
            title={error}
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="change-password-error"
          />
        )}
        <Form.Item style={{ marginBottom: 0 }}>
          <Button
            type="primary"
            htmlType="submit"
            loading={changePassword.isPending}
            data-testid="change-password-submit"
          >
            {t('security.changePassword')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
