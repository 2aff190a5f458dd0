import '../../i18n/square-texts';
import './editor.css';
import { EditOutlined, ExportOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { App as AntApp, Button, Divider, Flex, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useShareStatus, useUpdateShareSettings } from '../../api/square';
import { squareErrorText } from '../errors/square-errors';
import { DescriptionEditorModal } from './DescriptionEditorModal';
import { PRIVATE_RESET, ShareSettingsModal } from './ShareSettingsModal';

/**
 * The sharing controls of one account on /my/account (document 1 §2, §4, §8): the public
 * toggle saves at once and reverts when saving fails; switching off also resets accept_copy,
 * show_trades, show_positions and allow_comments to true; the share settings and the
 * description editor open in dialogs.
 */
export function ShareControls({ accountId }: { accountId: number }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const status = useShareStatus(accountId);
  const update = useUpdateShareSettings();
  // The toggle shows the wanted state while it saves, and the saved one otherwise.
  const [pending, setPending] = useState<boolean | null>(null);
  const [openDialog, setOpenDialog] = useState<'settings' | 'description' | null>(null);
  const isPublic = pending ?? status.data?.is_public ?? false;

  const toggle = (next: boolean) => {
    setPending(next);
    update.mutate(
      { accountId, body: next ? { is_public: true } : { is_public: false, ...PRIVATE_RESET } },
      {
        onSuccess: () => void message.success(next ? t('share.published') : t('share.unpublished')),
        onError: (error) =>
          void message.error(
            t('share.updateFailed', { error: squareErrorText(t, error, t('errors.generic')) }),
          ),
        onSettled: () => setPending(null),
      },
    );
  };

  return (
    <div data-testid="share-controls">
      <Divider style={{ margin: '4px 0 12px' }} />
      {status.isError ? (
        <Flex justify="space-between" align="center" gap={8}>
          <Typography.Text type="danger">{t('share.statusFailed')}</Typography.Text>
          <Button size="small" icon={<ReloadOutlined />} onClick={() => void status.refetch()}>
            {t('common.retry')}
          </Button>
        </Flex>
      ) : (
        <Flex justify="space-between" align="center" gap={8} wrap>
          <Flex align="center" gap={8}>
            <Switch
              checked={isPublic}
              loading={status.isPending || update.isPending}
              disabled={status.isPending}
              onChange={toggle}
              aria-label={t('share.public')}
              data-testid="share-toggle"
            />
            <Typography.Text>{t('share.public')}</Typography.Text>
          </Flex>
          <Flex gap={4} wrap>
            <Button
              size="small"
              icon={<SettingOutlined />}
              onClick={() => setOpenDialog('settings')}
              data-testid="share-settings-open"
            >
              {t('share.settings')}
            </Button>
            <Button
              size="small"
              icon={<EditOutlined />}
              onClick={() => setOpenDialog('description')}
              data-testid="share-description-open"
            >
              {t('share.editDescription')}
            </Button>
            {isPublic && pending === null && (
              <Link
                to={`/strategy/${accountId}`}
                data-testid="share-view-strategy"
                style={{ display: 'inline-flex', alignItems: 'center', gap: 4, paddingInline: 7 }}
              >
                <ExportOutlined />
                {t('share.viewStrategy')}
              </Link>
            )}
          </Flex>
        </Flex>
      )}
      <ShareSettingsModal
        accountId={openDialog === 'settings' ? accountId : null}
        onClose={() => setOpenDialog(null)}
      />
      <DescriptionEditorModal
        accountId={openDialog === 'description' ? accountId : null}
        onClose={() => setOpenDialog(null)}
      />
    </div>
  );
}
