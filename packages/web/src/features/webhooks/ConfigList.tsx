import { DeleteOutlined, PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import type { WebhookBatchAction, WebhookConfig } from '@quantsquare/contracts';
import { App, Button, Checkbox, Empty, Flex, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errors';
import {
  useDeleteWebhookConfig,
  useUpdateWebhookConfig,
  useWebhookBatchAction,
} from '../../api/webhooks';
import { ConfigCard } from './ConfigCard';
import { RegenerateKeyModal } from './RegenerateKeyModal';

interface Props {
  configs: readonly WebhookConfig[];
  /** Full URLs this page received (create and regenerate answers), by configuration id. */
  revealed: Readonly<Record<number, string>>;
  onRevealed: (config: WebhookConfig) => void;
  onEdit: (config: WebhookConfig) => void;
  onTest: (config: WebhookConfig) => void;
  onCreate: () => void;
}

const BATCH_ICONS: Record<WebhookBatchAction, React.ReactNode> = {
  enable: <PlayCircleOutlined />,
  disable: <PauseCircleOutlined />,
  delete: <DeleteOutlined />,
};

/** No configuration yet: what one is for, and the button to create it. */
function NoConfigs({ onCreate }: { onCreate: () => void }) {
  const { t } = useTranslation();
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <Flex vertical gap={4}>
          <Typography.Text>{t('webhooks.list.empty')}</Typography.Text>
          <Typography.Text type="secondary">{t('webhooks.list.emptyHint')}</Typography.Text>
        </Flex>
      }
      data-testid="webhook-configs-empty"
    >
      <Button type="primary" onClick={onCreate}>
        {t('webhooks.create')}
      </Button>
    </Empty>
  );
}

/** Select all, and the batch actions on the selected configurations. */
function BatchBar({
  chosen,
  total,
  onSelectAll,
  pendingAction,
  onAction,
}: {
  chosen: number;
  total: number;
  onSelectAll: (on: boolean) => void;
  pendingAction: WebhookBatchAction | undefined;
  onAction: (action: WebhookBatchAction) => void;
}) {
  const { t } = useTranslation();
  const allChosen = total > 0 && chosen === total;
  return (
    <Flex align="center" justify="space-between" gap={8} wrap data-testid="webhook-batch-bar">
      <Checkbox
        checked={allChosen}
        indeterminate={chosen > 0 && !allChosen}
        onChange={(event) => onSelectAll(event.target.checked)}
        data-testid="webhook-select-all"
      >
        {t('webhooks.list.selected', { count: chosen })}
      </Checkbox>
      <Space size={4} wrap>
        {(['enable', 'disable', 'delete'] as const).map((action) => (
          <Button
            key={action}
            size="small"
            icon={BATCH_ICONS[action]}
            danger={action === 'delete'}
            disabled={chosen === 0}
            loading={pendingAction === action}
            onClick={() => onAction(action)}
            data-testid={`webhook-batch-${action}`}
          >
            {t(`webhooks.list.${action}Selected`)}
          </Button>
        ))}
      </Space>
    </Flex>
  );
}

/**
 * The configurations with their own actions (enable switch, edit, test, delete, regenerate the
 * URL) and batch enable, disable and delete of the selected ones, each confirmed first.
 */
export function ConfigList({ configs, revealed, onRevealed, onEdit, onTest, onCreate }: Props) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const update = useUpdateWebhookConfig();
  const remove = useDeleteWebhookConfig();
  const batch = useWebhookBatchAction();

  // Selections of configurations that are gone (deleted elsewhere) are dropped.
  const ids = new Set(configs.map((c) => c.id));
  const chosen = [...selected].filter((id) => ids.has(id));
  const failed = (error: unknown) =>
    void message.error(errorMessage(t, error, t('webhooks.actionFailed')));

  const select = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const toggle = (config: WebhookConfig, enabled: boolean) =>
    update.mutate(
      { id: config.id, body: { enabled } },
      {
        onSuccess: () =>
          void message.success(enabled ? t('webhooks.done.enabled') : t('webhooks.done.disabled')),
        onError: failed,
      },
    );

  const confirmDelete = (config: WebhookConfig) =>
    void modal.confirm({
      title: t('webhooks.confirm.deleteTitle', { name: config.name }),
      content: t('webhooks.confirm.deleteBody'),
      okText: t('webhooks.confirm.ok'),
      cancelText: t('webhooks.confirm.cancel'),
      okButtonProps: { danger: true },
      onOk: () =>
        remove
          .mutateAsync(config.id)
          .then(() => {
            select(config.id, false);
            void message.success(t('webhooks.done.delete', { count: 1 }));
          })
          .catch(failed),
    });

  // The new URL is confirmed in its own dialog (with the 2FA code when the user has 2FA on).
  const [regenerating, setRegenerating] = useState<WebhookConfig | null>(null);
  const confirmRegenerate = (config: WebhookConfig) => setRegenerating(config);

  const confirmBatch = (action: WebhookBatchAction) =>
    void modal.confirm({
      title: t(`webhooks.confirm.batchTitle.${action}`, { count: chosen.length }),
      content: t(`webhooks.confirm.batchBody.${action}`),
      okText: t('webhooks.confirm.ok'),
      cancelText: t('webhooks.confirm.cancel'),
      okButtonProps: { danger: action !== 'enable' },
      onOk: () =>
        batch
          .mutateAsync({ ids: chosen, action })
          .then((answer) => {
            void message.success(t(`webhooks.done.${action}`, { count: answer.updated.length }));
            if (answer.not_found.length > 0) {
              void message.warning(t('webhooks.done.notFound', { count: answer.not_found.length }));
            }
            if (action === 'delete') setSelected(new Set());
          })
          .catch(failed),
    });

  if (configs.length === 0) return <NoConfigs onCreate={onCreate} />;

  return (
    <Flex vertical gap={12}>
      <RegenerateKeyModal
        config={regenerating}
        onClose={() => setRegenerating(null)}
        onRevealed={onRevealed}
      />
      <BatchBar
        chosen={chosen.length}
        total={configs.length}
        onSelectAll={(on) => setSelected(on ? new Set(configs.map((c) => c.id)) : new Set())}
        pendingAction={batch.isPending ? batch.variables?.action : undefined}
        onAction={confirmBatch}
      />
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 420px), 1fr))',
          gap: 12,
          alignItems: 'start',
        }}
        data-testid="webhook-configs"
      >
        {configs.map((config) => (
          <ConfigCard
            key={config.id}
            config={config}
            fullUrl={revealed[config.id]}
            selected={chosen.includes(config.id)}
            onSelect={(on) => select(config.id, on)}
            onToggle={(enabled) => toggle(config, enabled)}
            toggling={update.isPending && update.variables?.id === config.id}
            onEdit={() => onEdit(config)}
            onTest={() => onTest(config)}
            onDelete={() => confirmDelete(config)}
            onRegenerate={() => confirmRegenerate(config)}
            regenerating={false}
          />
        ))}
      </div>
    </Flex>
  );
}
