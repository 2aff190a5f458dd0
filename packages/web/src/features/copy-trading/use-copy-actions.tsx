import type { CopyRelation } from '@quantsquare/contracts';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopyAction, useDeleteCopy } from '../../api/copy-trading';
import { copyErrorText } from './copy-errors';
import type { CopyRowAction } from './copy-format';

/**
 * The actions of a copy relation (document 2 §4): pause and resume at once, stop after a
 * confirmation that it cannot be undone, delete after a confirmation, edit through the edit
 * modal (`editing`).
 */
export function useCopyActions(options: { onDeleted?: () => void } = {}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const act = useCopyAction();
  const remove = useDeleteCopy();
  const [busyId, setBusyId] = useState<number | null>(null);
  const [editing, setEditing] = useState<CopyRelation | null>(null);

  const fail = (error: unknown) =>
    void message.error(copyErrorText(t, error, t('copy.actions.failed')));

  const transition = (relation: CopyRelation, action: 'pause' | 'resume' | 'stop') => {
    setBusyId(relation.id);
    return act
      .mutateAsync({ id: relation.id, action })
      .then(() => {
        const done = { pause: 'paused', resume: 'resumed', stop: 'stopped' } as const;
        void message.success(t(`copy.actions.${done[action]}`));
      }, fail)
      .finally(() => setBusyId(null));
  };

  const run = (relation: CopyRelation, action: CopyRowAction) => {
    switch (action) {
      case 'pause':
      case 'resume':
        void transition(relation, action);
        return;
      case 'edit':
        setEditing(relation);
        return;
      case 'stop':
        modal.confirm({
          title: t('copy.actions.stopTitle'),
          content: t('copy.actions.stopBody'),
          okText: t('copy.actions.stop'),
          cancelText: t('common.cancel'),
          okButtonProps: {
            danger: true,
            autoInsertSpace: false,
            'data-testid': 'copy-confirm-ok',
          } as never,
          cancelButtonProps: { autoInsertSpace: false },
          onOk: () => transition(relation, 'stop'),
        });
        return;
      case 'delete':
        modal.confirm({
          title: t('copy.actions.deleteTitle'),
          content: t('copy.actions.deleteBody'),
          okText: t('copy.actions.delete'),
          cancelText: t('common.cancel'),
          okButtonProps: {
            danger: true,
            autoInsertSpace: false,
            'data-testid': 'copy-confirm-ok',
          } as never,
          cancelButtonProps: { autoInsertSpace: false },
          onOk: () => {
            setBusyId(relation.id);
            return remove
              .mutateAsync(relation.id)
              .then(() => {
                void message.success(t('copy.actions.deleted'));
                options.onDeleted?.();
              }, fail)
              .finally(() => setBusyId(null));
          },
        });
        return;
    }
  };

  return { run, busyId, editing, closeEdit: () => setEditing(null) };
}
