import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NAV_ICONS } from '../../app/shell/nav-icons';

export const WEBHOOK_PATHS = {
  configs: '/webhook-trading',
  signals: '/webhook-trading/signals',
  logs: '/webhook-trading/logs',
} as const;

export type WebhookScreen = keyof typeof WEBHOOK_PATHS;

/** Moves between the three webhook screens: configurations, signal monitoring and logs. */
export function WebhookTabs({ current }: { current: WebhookScreen }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Segmented<WebhookScreen>
      value={current}
      onChange={(screen) => navigate(WEBHOOK_PATHS[screen])}
      aria-label={t('webhooks.nav.label')}
      data-testid="webhook-tabs"
      options={[
        { value: 'configs', icon: NAV_ICONS.signalTrading, label: t('webhooks.nav.configs') },
        { value: 'signals', icon: NAV_ICONS.signalMonitoring, label: t('webhooks.nav.signals') },
        { value: 'logs', icon: NAV_ICONS.apiOperationLog, label: t('webhooks.nav.logs') },
      ]}
    />
  );
}
