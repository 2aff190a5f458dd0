import '../../i18n/bots-texts';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBots } from '../../api/bots';
import { QueryState } from '../../shared/ui/QueryState';
import { Panel, Text } from '../../shared/ui/ui';
import { BotCard } from './BotCard';
import { OperationLog } from './OperationLog';
import { useBotActions } from './use-bot-actions';

// The Configure Trading Bot dialog (its form, number inputs and radios) is fetched when it is
// first wanted: on pointing at or focusing a create button, at the latest on the click.
// It comes with antd's App, whose message and confirm dialog it uses.
const loadCreateModal = () =>
  Promise.all([import('./BotCreateModal'), import('../../app/feedback')]);
const BotCreateModal = lazy(() =>
  loadCreateModal().then(([m, feedback]) => ({ default: feedback.withFeedback(m.BotCreateModal) })),
);
const preloadCreateModal = () => void loadCreateModal();

/** The bot list with its actions and the Configure Trading Bot button (document 1 §2). */
function BotList() {
  const { t } = useTranslation();
  const bots = useBots();
  const actions = useBotActions();
  const [isCreateOpen, setCreateOpen] = useState(false);
  // Mounted from the first opening on, so the dialog keeps its closing animation.
  const [hasOpenedCreate, setHasOpenedCreate] = useState(false);
  const openCreate = () => {
    setHasOpenedCreate(true);
    setCreateOpen(true);
  };
  const createTriggers = { onPointerEnter: preloadCreateModal, onFocus: preloadCreateModal };
  const list = bots.data?.results ?? [];

  return (
    <Panel
      title={t('bots.title')}
      data-testid="bot-list"
      extra={
        <Flex wrap gap={8} align="center">
          <Text tone="secondary" size={12}>
            {t('bots.autoRefresh')}
          </Text>
          <Button
            type="primary"
            size="small"
            icon={<PlusOutlined />}
            onClick={openCreate}
            {...createTriggers}
            data-testid="bot-create"
          >
            {t('bots.create')}
          </Button>
        </Flex>
      }
    >
      <QueryState
        query={bots}
        failedText={t('bots.loadFailed')}
        isEmpty={() => list.length === 0}
        empty={
          <Flex
            vertical
            align="center"
            gap={8}
            style={{ padding: '24px 8px', textAlign: 'center' }}
          >
            <Text strong data-testid="bot-empty">
              {t('bots.empty')}
            </Text>
            <Text tone="secondary">{t('bots.emptyHint')}</Text>
            <Button type="primary" icon={<PlusOutlined />} onClick={openCreate} {...createTriggers}>
              {t('bots.create')}
            </Button>
          </Flex>
        }
      >
        {() => (
          <Flex vertical gap={12}>
            {list.map((bot) => (
              <BotCard
                key={bot.id}
                bot={bot}
                busy={actions.busy?.id === bot.id ? actions.busy.kind : null}
                showVip={actions.vipBlocked.has(bot.id)}
                onStart={actions.start}
                onStop={actions.stop}
                onDelete={actions.confirmDelete}
              />
            ))}
          </Flex>
        )}
      </QueryState>
      {actions.feedbackHost}
      {hasOpenedCreate && (
        <Suspense fallback={null}>
          <BotCreateModal open={isCreateOpen} onClose={() => setCreateOpen(false)} />
        </Suspense>
      )}
    </Panel>
  );
}

/**
 * A signed-in user's part of /dashboard: bot list, Configure Trading Bot dialog and the operation
 * log. Loaded lazily (with its texts) so a visitor's dashboard stays small.
 */
export default function BotArea() {
  return (
    <Flex vertical gap={16}>
      <BotList />
      <OperationLog />
    </Flex>
  );
}
