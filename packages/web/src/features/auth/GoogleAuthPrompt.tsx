import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Button, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

interface GoogleAuthPromptProps {
  open: boolean;
  onSetup: () => void;
  onSkip: () => void;
}

/** Offered after login when Google authenticator is off: Setup Now → /my/security, Skip → /dashboard. */
export function GoogleAuthPrompt({ open, onSetup, onSkip }: GoogleAuthPromptProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={
        <Space>
          <SafetyCertificateOutlined />
          {t('googlePrompt.title')}
        </Space>
      }
      onCancel={onSkip}
      mask={{ closable: false }}
      footer={[
        <Button key="skip" onClick={onSkip} data-testid="google-prompt-skip">
          {t('googlePrompt.skip')}
        </Button>,
        <Button key="setup" type="primary" onClick={onSetup} data-testid="google-prompt-setup">
          {t('googlePrompt.setupNow')}
        </Button>,
      ]}
    >
      <Typography.Paragraph style={{ marginBottom: 0 }} data-testid="google-auth-prompt">
        {t('googlePrompt.body')}
      </Typography.Paragraph>
    </Modal>
  );
}
