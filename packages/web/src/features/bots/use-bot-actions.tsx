import { type Bot, ERROR_CODES } from '@quantsquare/contracts';
import { type ReactNode, useCallback, useState } from 'react';
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

/** The action a bot is busy with. */
type Kind = 'start' | 'stop' | 'delete';

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
  const [busy, setBusy] = useState<{ id: number; kind: Kind } | null>(null);
  const [vipBlocked, setVipBlocked] = useState<ReadonlySet<number>>(new Set());

  const markVip = (id: number) => setVipBlocked((current) => new Set(current).add(id));

  /**
   * A confirmation whose OK runs `call` for the bot (busy meanwhile), then says `done` or the
   * failure's text (`failed` when it has none of its own).
   */
  const confirmThen = (
    bot: Bot,
    kind: Kind,
    { danger, ...dialog }: { title: string; content: ReactNode; okText: string; danger?: boolean },
    call: () => Promise<unknown>,
    texts: { done: string; failed: string },
    onError?: (error: unknown) => void,
  ) =>
    feedback.run(({ message, modal }) => {
      modal.confirm({
        ...dialog,
        cancelText: t('common.cancel'),
        okButtonProps: { danger, autoInsertSpace: false },
        cancelButtonProps: { autoInsertSpace: false },
        onOk: () => {
          setBusy({ id: bot.id, kind });
          return call()
            .then(
              () => void message.success(texts.done),
              (error: unknown) => {
                onError?.(error);
                void message.error(errorText(error, texts.failed));
              },
            )
            .finally(() => setBusy(null));
        },
      });
    });

  const start = (bot: Bot) => {
    if (!bot.can_start) {
      markVip(bot.id);
      feedback.run(({ message }) => void message.warning(t('bots.server.vipRequired')));
      return;
    }
    const isRestart = bot.status === 'error';
    confirmThen(
      bot,
      'start',
      {
        title: t(isRestart ? 'bots.confirm.restartTitle' : 'bots.confirm.startTitle'),
        content: t(isRestart ? 'bots.confirm.restartBody' : 'bots.confirm.startBody', {
          symbol: bot.symbol,
        }),
        okText: t(isRestart ? 'bots.actions.restart' : 'bots.actions.start'),
      },
      () => action.mutateAsync({ id: bot.id, action: 'start' }),
      { done: t('bots.messages.started'), failed: t('bots.messages.startFailed') },
      (error) => {
        if (isVipRefusal(error)) markVip(bot.id);
      },
    );
  };

  const stop = (bot: Bot) =>
    confirmThen(
      bot,
      'stop',
      {
        title: t('bots.confirm.stopTitle'),
        content: t('bots.confirm.stopBody', { symbol: bot.symbol }),
        okText: t('bots.actions.stop'),
        danger: true,
      },
      () => action.mutateAsync({ id: bot.id, action: 'stop' }),
      { done: t('bots.messages.stopped'), failed: t('bots.messages.stopFailed') },
    );

  const confirmDelete = (bot: Bot) => {
    if (bot.status === 'running') {
      feedback.run(({ message }) => void message.error(t('bots.server.stopBeforeDelete')));
      return;
    }
    confirmThen(
      bot,
      'delete',
      {
        title: t('bots.confirm.deleteTitle'),
        content: (
          <>
            <p style={{ margin: 0 }}>{t('bots.confirm.deleteBody', { symbol: bot.symbol })}</p>
            <p style={{ margin: 0 }}>{t('bots.confirm.deleteIrreversible')}</p>
          </>
        ),
        okText: t('bots.actions.delete'),
        danger: true,
      },
      () => remove.mutateAsync(bot.id),
      { done: t('bots.messages.deleted'), failed: t('bots.messages.deleteFailed') },
    );
  };

  return { start, stop, confirmDelete, busy, vipBlocked, feedbackHost: feedback.host };
}
