import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Panel, Text } from '../../shared/ui/ui';

// The bot area is a chunk of its own (with its texts), loaded only for signed-in users, so a
// visitor's /dashboard does not pay for it.
const BotArea = lazy(() => import('./BotArea'));

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
