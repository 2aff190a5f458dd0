import { SHARE_DESCRIPTION_MAX_LENGTH } from '@quantsquare/contracts';
import { App, type ButtonProps, Modal, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShareSettings, useUpdateShareSettings } from '../../api/square';
import { squareErrorText } from '../errors/square-errors';
import { visibleLength } from '../format/square-format';
import { QueryErrorAlert } from '../ui/QueryState';
import { DescriptionEditor } from './DescriptionEditor';

interface Props {
  accountId: number | null;
  onClose: () => void;
}

/** An editor that holds nothing but empty paragraphs stores an empty description. */
export function descriptionToSave(html: string): string {
  return visibleLength(html) === 0 ? '' : html;
}

/**
 * The strategy description editor (document 1 §2, §5, §8): rich text with the basic toolbar,
 * at most 2,000 characters; '策略说明已更新' on success, '保存失败: {error}' on failure.
 */
export function DescriptionEditorModal({ accountId, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const settings = useShareSettings(accountId);
  const update = useUpdateShareSettings();
  const [html, setHtml] = useState<string | null>(null);
  const loaded = settings.data?.description;

  useEffect(() => {
    if (accountId === null) setHtml(null);
    else if (loaded !== undefined) setHtml((current) => current ?? loaded);
  }, [accountId, loaded]);

  const value = html ?? '';
  const isTooLong = visibleLength(value) > SHARE_DESCRIPTION_MAX_LENGTH;
  const save = () => {
    if (accountId === null || html === null || isTooLong) return;
    update.mutate(
      { accountId, body: { description: descriptionToSave(html) } },
      {
        onSuccess: () => {
          void message.success(t('share.editor.saved'));
          onClose();
        },
        onError: (error) =>
          void message.error(
            t('share.editor.saveFailed', { error: squareErrorText(t, error, t('errors.generic')) }),
          ),
      },
    );
  };
  const saveButton: ButtonProps & { 'data-testid': string } = {
    disabled: html === null || isTooLong,
    loading: update.isPending,
    'data-testid': 'description-save',
  };

  return (
    <Modal
      open={accountId !== null}
      title={t('share.editor.title')}
      onCancel={onClose}
      onOk={save}
      okText={t('share.editor.save')}
      okButtonProps={saveButton}
      width={720}
      destroyOnHidden
      data-testid="description-modal"
    >
      {settings.isError ? (
        <QueryErrorAlert
          query={settings}
          failedText={t('share.editor.loadFailed')}
          describe={squareErrorText}
          hideRetry
        />
      ) : html === null ? (
        <Skeleton active />
      ) : (
        <DescriptionEditor value={value} onChange={setHtml} />
      )}
    </Modal>
  );
}
