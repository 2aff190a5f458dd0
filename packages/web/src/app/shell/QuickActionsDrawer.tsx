import { Drawer, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { NAV_ICONS } from './nav-icons';
import { QUICK_ACTIONS } from './nav-items';

interface Props {
  open: boolean;
  onClose: () => void;
  onSelect: (path: string) => void;
}

/** The mobile '+' quick actions: create strategy, follow, deposit, withdraw (document 2 §2). */
export default function QuickActionsDrawer({ open, onClose, onSelect }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Drawer
      placement="bottom"
      size="auto"
      open={open}
      onClose={onClose}
      title={t('nav.quickActions')}
      styles={{ body: { padding: 12 } }}
    >
      <div
        role="menu"
        style={{ display: 'grid', gridTemplateColumns: 'repeat(4, minmax(0, 1fr))', gap: 8 }}
      >
        {QUICK_ACTIONS.map((entry) => (
          <button
            key={entry.key}
            type="button"
            role="menuitem"
            data-testid={`quick-action-${entry.key}`}
            onClick={() => onSelect(entry.path)}
            style={{
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              gap: 6,
              padding: '12px 4px',
              border: `1px solid ${token.colorBorderSecondary}`,
              borderRadius: token.borderRadiusLG,
              background: token.colorFillQuaternary,
              color: token.colorText,
              cursor: 'pointer',
              fontSize: 13,
              minWidth: 0,
            }}
          >
            <span style={{ fontSize: 22, color: token.colorPrimary, lineHeight: 1 }}>
              {NAV_ICONS[entry.key]}
            </span>
            <span style={{ overflowWrap: 'anywhere', textAlign: 'center' }}>
              {t(`nav.items.${entry.key}`)}
            </span>
          </button>
        ))}
      </div>
    </Drawer>
  );
}
