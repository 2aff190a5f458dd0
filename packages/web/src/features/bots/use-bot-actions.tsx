import { type Bot, ERROR_CODES } from '@quantsquare/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBotAction, useDeleteBot } from '../../api/bots';
import { ApiRequestError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { botServerKey } from '../../shared/format/bot-format';
import { useDeferredFeedback } from '../../shared/ui/deferred-feedback';

/** A failed call's text: a known bots-API text translated, the server's own text, or `fallback`. */
export function useBotErrorText() {
  const { t } = useTranslation();
  return useCallback(
    (error: unknown, fallback: string): string => {
      const key = error instanceof ApiRequestError ? botServerKey(error.body) : null;
      if (key) return t(`bots.server.${key}`);
      return errorMessage(t, error, fallback);
    },
    [t],
  );
}

/** Whether an error is the server's VIP-required refusal of a start (by its code). */
function isVipRefusal(error: unknown): boolean {
  return error instanceof ApiRequestError && error.body?.code === ERROR_CODES.vipRequired;
}

/**
 * Start (also Restart), stop and delete of one bot with the confirmations and texts of
 * document 1 §4 and §8. `vipBlocked` holds the bots whose start was refused for lack of VIP.
 */
export function useBotActions() {
  const { t } = useTranslation();
  const feedback = useDeferredFeedback();
  const action = useBotAction();
  const remove = useDeleteBot();
  const errorText = useBotErrorText();
  const [busy, setBusy] = useState<{ id: number; kind: 'start' | 'stop' | 'delete' } | null>(null);
  const [vipBlocked, setVipBlocked] = useState<ReadonlySet<number>>(new Set());

  const markVip = (id: number) => setVipBlocked((current) => new Set(current).add(id));

  const start = (bot: Bot) =>
    feedback.run(({ message, modal }) => {
      if (!bot.can_start) {
        markVip(bot.id);
        void message.warning(t('bots.server.vipRequired'));
        return;
      }
      const isRestart = bot.status === 'error';
      modal.confirm({
        title: t(isRestart ? 'bots.confirm.restartTitle' : 'bots.confirm.startTitle'),
        content: t(isRestart ? 'bots.confirm.restartBody' : 'bots.confirm.startBody', {
          symbol: bot.symbol,
        }),
        okText: t(isRestart ? 'bots.actions.restart' : 'bots.actions.start'),
        cancelText: t('common.cancel'),
        okButtonProps: { autoInsertSpace: false },
        cancelButtonProps: { autoInsertSpace: false },
        onOk: () => {
          setBusy({ id: bot.id, kind: 'start' });
          return action
            .mutateAsync({ id: bot.id, action: 'start' })
            .then(
              () => void message.success(t('bots.messages.started')),
              (error: unknown) => {
                if (isVipRefusal(error)) markVip(bot.id);
                void message.error(errorText(error, t('bots.messages.startFailed')));
              },
            )
            .finally(() => setBusy(null));
        },
      });
    });

  const stop = (bot: Bot) =>
    feedback.run(({ message, modal }) => {
      modal.confirm({
        title: t('bots.confirm.stopTitle'),
        content: t('bots.confirm.stopBody', { symbol: bot.symbol }),
        okText: t('bots.actions.stop'),
        cancelText: t('common.cancel'),
        okButtonProps: { danger: true, autoInsertSpace: false },
        cancelButtonProps: { autoInsertSpace: false },
        onOk: () => {
          setBusy({ id: bot.id, kind: 'stop' });
          return action
            .mutateAsync({ id: bot.id, action: 'stop' })
            .then(
              () => void message.success(t('bots.messages.stopped')),
              (error: unknown) =>
                void message.error(errorText(error, t('bots.messages.stopFailed'))),
            )
            .finally(() => setBusy(null));
        },
      });
    });

  const confirmDelete = (bot: Bot) =>
    feedback.run(({ message, modal }) => {
      if (bot.status === 'running') {
        void message.error(t('bots.server.stopBeforeDelete'));
        return;
      }
      modal.confirm({
        title: t('bots.confirm.deleteTitle'),
        content: (
          <>
            <p style={{ margin: 0 }}>{t('bots.confirm.deleteBody', { symbol: bot.symbol })}</p>
            <p style={{ margin: 0 }}>{t('bots.confirm.deleteIrreversible')}</p>
          </>
        ),
        okText: t('bots.actions.delete'),
        cancelText: t('common.cancel'),
        okButtonProps: { danger: true, autoInsertSpace: false },
        cancelButtonProps: { autoInsertSpace: false },
        onOk: () => {
          setBusy({ id: bot.id, kind: 'delete' });
          return remove
            .mutateAsync(bot.id)
            .then(
              () => void message.success(t('bots.messages.deleted')),
              (error: unknown) =>
                void message.error(errorText(error, t('bots.messages.deleteFailed'))),
            )
            .finally(() => setBusy(null));
        },
      });
    });

  return { start, stop, confirmDelete, busy, vipBlocked, feedbackHost: feedback.host };
}
