import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

interface SendCodeButtonProps {
  hasTarget: boolean;
  secondsLeft: number;
  isSending: boolean;
  onSend: () => void;
  testId: string;
}

/** Disabled without a target and during the 60-second cooldown, which it counts down. */
export function SendCodeButton({
  hasTarget,
  secondsLeft,
  isSending,
  onSend,
  testId,
}: SendCodeButtonProps) {
  const { t } = useTranslation();
  return (
    <Button
      onClick={onSend}
      disabled={!hasTarget || secondsLeft > 0}
      loading={isSending}
      data-testid={testId}
      style={{ minWidth: 116 }}
    >
      {secondsLeft > 0 ? t('login.resendIn', { seconds: secondsLeft }) : t('login.sendCode')}
    </Button>
  );
}
