import { Alert, Button, Card, Descriptions, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAccountSecurity } from '../api/auth';
import { errorMessage } from '../api/errors';
import { ChangePasswordCard } from '../features/security/ChangePasswordCard';
import { TwoFactorCard } from '../features/security/TwoFactorCard';
import { maskPhone } from '../shared/format/mask-phone';

/** /my/security: account identifiers, Google authenticator (2FA) and password change. */
export function SecurityPage() {
  const { t } = useTranslation();
  const security = useAccountSecurity();

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t('security.title')}
      </Typography.Title>
      {security.isPending && <Skeleton active />}
      {security.isError && (
        <Alert
          type="error"
          showIcon
          title={errorMessage(t, security.error, t('security.loadFailed'))}
          action={
            <Button size="small" onClick={() => void security.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      )}
      {security.data && (
        <>
          <Card title={t('security.overview')}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('security.email')}>
                <span data-testid="security-email">
                  {security.data.email ?? t('security.notSet')}
                </span>
              </Descriptions.Item>
              <Descriptions.Item label={t('security.phone')}>
                <span data-testid="security-phone">
                  {security.data.phone ? maskPhone(security.data.phone) : t('security.notSet')}
                </span>
              </Descriptions.Item>
            </Descriptions>
          </Card>
          <TwoFactorCard security={security.data} />
        </>
      )}
      <ChangePasswordCard />
    </Space>
  );
}
