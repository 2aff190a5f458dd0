import { ClockCircleOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** Routes of features that are not built yet: an honest placeholder, no fake controls. */
export function ComingSoonPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      icon={<ClockCircleOutlined />}
      title={t('comingSoon.title')}
      subTitle={t('comingSoon.subtitle')}
      data-testid="coming-soon"
      extra={
        <Button type="primary" onClick={() => navigate('/dashboard')}>
          {t('common.backHome')}
        </Button>
      }
    />
  );
}
