import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@quantsquare/contracts';
import { Form, Input } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';

/** A new password and its repetition (registration, password reset), with their checks. */
export function NewPasswordFields({
  required,
  labels,
}: {
  required: Rule;
  labels: { password: string; password2: string };
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        label={labels.password}
        rules={[
          required,
          {
            min: PASSWORD_MIN_LENGTH,
            message: t('register.passwordTooShort', { min: PASSWORD_MIN_LENGTH }),
          },
        ]}
      >
        <Input.Password
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
          placeholder={t('register.passwordPlaceholder', { min: PASSWORD_MIN_LENGTH })}
        />
      </Form.Item>
      <Form.Item
        name="password2"
        label={labels.password2}
        dependencies={['password']}
        rules={[
          required,
          ({ getFieldValue }) => ({
            validator: (_, value) =>
              !value || getFieldValue('password') === value
                ? Promise.resolve()
                : Promise.reject(new Error(t('register.passwordMismatch'))),
          }),
        ]}
      >
        <Input.Password
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
          placeholder={t('register.password2Placeholder')}
        />
      </Form.Item>
    </>
  );
}
