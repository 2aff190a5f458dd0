import { ERROR_CODES, type ExchangeApi, type ValidateResponse } from '@quantsquare/contracts';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDeleteExchangeApi,
  useTestConnection,
  useValidateExchangeApi,
} from '../../api/accounts';
import { ApiRequestError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { DeleteApiConfirm, runningBotsText } from './DeleteApiConfirm';
import { ExchangeErrorText, useExchangeErrorKindText } from './ExchangeErrorText';

/** The reason of a failed request, for the spec's "... failed: {message}" texts. */
function failureReason(t: ReturnType<typeof useTranslation>['t'], error: unknown): string {
  const fallback = error instanceof Error ? error.message : String(error);
  return error instanceof ApiRequestError ? errorMessage(t, error, fallback) : fallback;
}

/**
 * Test connection, validate and delete of one API with the texts of document 1 §8. An exchange
 * failure is said by its kind in the reader's language, the exchange's words on demand.
 * `busy` tells which row's action runs.
 */
export function useApiActions() {
  const { t } = useTranslation();
  const { message, modal, notification } = App.useApp();
  const kindText = useExchangeErrorKindText();
  const testConnection = useTestConnection();
  const validate = useValidateExchangeApi();
  const remove = useDeleteExchangeApi();
  const [busy, setBusy] = useState<{ id: number; action: 'test' | 'validate' } | null>(null);
  const [validation, setValidation] = useState<{
    api: ExchangeApi;
    result: ValidateResponse;
  } | null>(null);

  const test = (api: ExchangeApi) => {
    setBusy({ id: api.id, action: 'test' });
    testConnection.mutate(api.id, {
      onSuccess: (answer) => {
        if (answer.success) {
          void message.success(t('apis.messages.connectionSuccess'));
          return;
        }
        notification.error({
          key: `connection-${api.id}`,
          title: t('apis.messages.connectionFailed', { message: kindText(answer.error_kind) }),
          description: (
            <ExchangeErrorText kind={answer.error_kind} detail={answer.message} detailsOnly />
          ),
          props: { 'data-testid': 'connection-failed' },
        });
      },
      onError: (error) => {
        void message.error(
          t('apis.messages.connectionTestFailed', { message: failureReason(t, error) }),
        );
      },
      onSettled: () => setBusy(null),
    });
  };

  const runValidate = (api: ExchangeApi) => {
    setBusy({ id: api.id, action: 'validate' });
    validate.mutate(api.id, {
      onSuccess: (result) => setValidation({ api, result }),
      onError: (error) => {
        void message.error(t('apis.messages.validateFailed', { message: failureReason(t, error) }));
      },
      onSettled: () => setBusy(null),
    });
  };

  /** Deleting: the server's refusal (running bots) or failure, in the reader's language. */
  const deleteFailureText = (error: unknown): string => {
    const body = error instanceof ApiRequestError ? error.body : null;
    if (body?.code === ERROR_CODES.botRunning) {
      return t('apis.messages.deleteRefused', { bots: runningBotsText(body.running_bots ?? []) });
    }
    if (body?.code === ERROR_CODES.positionCloseFailed && body.open_symbols) {
      return t('apis.messages.stillOpen', { symbols: body.open_symbols.join(', ') });
    }
    if (body?.code === ERROR_CODES.positionCloseFailed) {
      return t('apis.messages.positionCloseFailed', {
        message: body.error_kind ? kindText(body.error_kind) : body.error,
      });
    }
    return errorMessage(t, error, t('apis.messages.deleteFailed'));
  };

  const confirmDelete = (api: ExchangeApi) => {
    modal.confirm({
      title: t('apis.messages.deleteTitle'),
      content: <DeleteApiConfirm api={api} />,
      okText: t('apis.actions.delete'),
      // No space inserted into the two-character Chinese label, so it reads as one word.
      okButtonProps: { danger: true, autoInsertSpace: false, 'data-testid': 'api-delete-confirm' },
      cancelButtonProps: { autoInsertSpace: false },
      cancelText: t('common.cancel'),
      onOk: () =>
        remove.mutateAsync(api.id).then(
          () => void message.success(t('apis.messages.deleted')),
          (error: unknown) => {
            notification.error({
              key: `delete-${api.id}`,
              title: t('apis.messages.deleteFailed'),
              description: deleteFailureText(error),
              props: { 'data-testid': 'api-delete-failed' },
            });
          },
        ),
    });
  };

  return {
    test,
    validate: runValidate,
    confirmDelete,
    busy,
    validation,
    closeValidation: () => setValidation(null),
  };
}
