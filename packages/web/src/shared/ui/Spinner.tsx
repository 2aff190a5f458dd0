import { theme } from 'antd';
import { useTranslation } from 'react-i18next';

/** A small CSS spinner in the primary colour (antd's Spin costs more than the first screen can spare). */
export function Spinner({ size = 'default' }: { size?: 'small' | 'default' }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <span
      role="status"
      aria-label={t('common.loading')}
      className={size === 'small' ? 'qs-spinner qs-spinner-small' : 'qs-spinner'}
      style={{ color: token.colorPrimary }}
    />
  );
}
