import { ApiOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Panel, Text } from './ui';

/** Visitors: the login/register prompt that stands where signed-in users see their bots. */
export function VisitorPrompt() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Panel data-testid="dashboard-visitor">
      <Flex wrap gap={12} align="center" justify="space-between">
        <Flex vertical gap={4} style={{ minWidth: 0, flex: '1 1 320px' }}>
          <Text strong>{t('dashboard.visitorTitle')}</Text>
          <Text tone="secondary">{t('dashboard.visitorBody')}</Text>
        </Flex>
        <Flex wrap gap={8}>
          <Button type="primary" onClick={() => navigate('/login')}>
            {t('dashboard.login')}
          </Button>
          <Button onClick={() => navigate('/register')}>{t('dashboard.register')}</Button>
          <Button type="link" icon={<ApiOutlined />} onClick={() => navigate('/my/api-management')}>
            {t('dashboard.apiManagement')}
          </Button>
        </Flex>
      </Flex>
    </Panel>
  );
}

// The bot area is a chunk of its own (with its texts), loaded only for signed-in users, so a
// visitor's /dashboard does not pay for it.
const BotArea = lazy(() => import('../bots/BotArea'));

/** Signed-in users: the bot list, the Configure Trading Bot dialog and the operation log. */
export function UserBotArea() {
  const { t } = useTranslation();
  return (
    <Suspense
      fallback={
        <Panel data-testid="bot-area-loading">
          <Text tone="secondary">{t('common.loading')}</Text>
        </Panel>
      }
    >
      <BotArea />
    </Suspense>
  );
}
