import { CODE_LENGTH, ERROR_CODES } from '@quantsquare/contracts';
import { Form, Input } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../api/auth';
import { ApiRequestError } from '../../api/client';

// Step-up for money and keys (a withdrawal, a webhook key, an exchange key): a user with 2FA on
// confirms in the same dialog with the authenticator code; the server checks it as at login.

/** Whether the signed-in user has 2FA on (then the dialogs ask for the code). */
export function useHasTwoFactor(): boolean {
  const profile = useProfile();
  return profile.data?.two_factor_enabled === true || profile.data?.google_auth_enabled === true;
}

/** The server asked for a code this dialog did not show (2FA turned on since the page loaded). */
export function isStepUpAsked(error: unknown): boolean {
  return error instanceof ApiRequestError && error.body?.needs_google_auth === true;
}

/** A step-up refusal in the reader's language, or null when the error is another one. */
export function stepUpErrorText(t: TFunction, error: unknown): string | null {
  if (!(error instanceof ApiRequestError)) return null;
  switch (error.body?.code) {
    case ERROR_CODES.googleCodeRequired:
      return t('security.stepUpRequired');
    case ERROR_CODES.invalidGoogleCode:
      return t('security.stepUpInvalid');
    case ERROR_CODES.accountLocked:
      return t('security.stepUpLocked');
    default:
      return null;
  }
}

const CODE_PATTERN = new RegExp(`^\\d{${CODE_LENGTH}}$`);

/** The authenticator code of a step-up: field `google_code` of the dialog's form. */
export function StepUpCodeField() {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="google_code"
      label={t('security.stepUpLabel')}
      extra={t('security.stepUpHint')}
      rules={[
        { required: true, message: t('security.stepUpRequired') },
        { pattern: CODE_PATTERN, message: t('security.stepUpRequired') },
      ]}
    >
      <Input
        inputMode="numeric"
        maxLength={CODE_LENGTH}
        autoComplete="one-time-code"
        placeholder={t('security.codePlaceholder')}
        data-testid="step-up-code"
      />
    </Form.Item>
  );
}
