import { ApiOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Panel, Text } from '../../shared/ui/ui';

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
