import type { OwnProfile } from '@quantsquare/contracts';
import { Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatGrouped } from '../../shared/format/money';

/** Following, followers, public strategies and total copiers (§2 profile settings). */
export function ProfileStats({ own }: { own: OwnProfile }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const items = [
    { key: 'following', label: t('settings.stats.following'), value: own.following_count },
    { key: 'followers', label: t('settings.stats.followers'), value: own.followers_count },
    {
      key: 'public-strategies',
      label: t('settings.stats.publicStrategies'),
      value: own.public_strategies_count,
    },
    { key: 'total-copiers', label: t('settings.stats.totalCopiers'), value: own.total_copiers },
  ];
  return (
    <div
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(4, minmax(0, 1fr))',
        gap: 8,
        padding: '12px 8px',
        borderRadius: token.borderRadiusLG,
        background: token.colorFillQuaternary,
      }}
    >
      {items.map((item) => (
        <div key={item.key} style={{ textAlign: 'center', minWidth: 0 }}>
          <div
            style={{ fontSize: 20, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
            data-testid={`profile-stat-${item.key}`}
          >
            {formatGrouped(item.value, i18n.language)}
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {item.label}
          </Typography.Text>
        </div>
      ))}
    </div>
  );
}
