import { Card, Descriptions, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAccountSecurity } from '../api/auth';
import { ChangePasswordCard } from '../features/security/ChangePasswordCard';
import { TwoFactorCard } from '../features/security/TwoFactorCard';
import { maskPhone } from '../shared/format/mask-phone';
import { QueryState } from '../shared/ui/QueryState';

/** /my/security: account identifiers, Google authenticator (2FA) and password change. */
export function SecurityPage() {
  const { t } = useTranslation();
  const security = useAccountSecurity();

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t('security.title')}
      </Typography.Title>
      <QueryState query={security} failedText={t('security.loadFailed')}>
        {(data) => (
          <>
            <Card title={t('security.overview')}>
              <Descriptions column={1} size="small">
                <Descriptions.Item label={t('security.email')}>
                  <span data-testid="security-email">{data.email ?? t('security.notSet')}</span>
                </Descriptions.Item>
                <Descriptions.Item label={t('security.phone')}>
                  <span data-testid="security-phone">
                    {data.phone ? maskPhone(data.phone) : t('security.notSet')}
                  </span>
                </Descriptions.Item>
              </Descriptions>
            </Card>
            <TwoFactorCard security={data} />
          </>
        )}
      </QueryState>
      <ChangePasswordCard />
    </Space>
  );
}
