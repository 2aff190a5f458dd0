import { Alert } from 'antd';
import type { ReactNode } from 'react';
import type { Flash } from './use-flash';

/** A sign-in form's one message line (useFlash), above its button; nothing when there is none. */
export function FlashAlert({
  flash,
  testId,
  action,
}: {
  flash: Flash | null;
  testId: string;
  action?: ReactNode;
}) {
  if (!flash) return null;
  return (
    <Alert
      type={flash.type}
      title={flash.text}
      showIcon
      style={{ marginBottom: 16 }}
      data-testid={testId}
      action={action}
    />
  );
}
