import type { ExchangeApi, ValidateResponse } from '@quantsquare/contracts';
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

/** The reason of a failed request, for the spec's "... failed: {message}" texts. */
function failureReason(t: ReturnType<typeof useTranslation>['t'], error: unknown): string {
  const fallback = error instanceof Error ? error.message : String(error);
  return error instanceof ApiRequestError ? errorMessage(t, error, fallback) : fallback;
}

/**
 * Test connection, validate and delete of one API with the texts of document 1 §8. `busyId`
 * tells which row's action runs.
 */
export function useApiActions() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
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
        if (answer.success) void message.success(t('apis.messages.connectionSuccess'));
        else void message.error(t('apis.messages.connectionFailed', { message: answer.message }));
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

  const confirmDelete = (api: ExchangeApi) => {
    modal.confirm({
      title: t('apis.messages.deleteTitle'),
      content: (
        <>
          <p style={{ margin: 0 }}>{t('apis.messages.deleteConfirm', { name: api.name })}</p>
          <p style={{ margin: 0 }}>{t('apis.messages.deleteIrreversible')}</p>
        </>
      ),
      okText: t('apis.actions.delete'),
      // No space inserted into the two-character Chinese label, so it reads as one word.
      okButtonProps: { danger: true, autoInsertSpace: false },
      cancelButtonProps: { autoInsertSpace: false },
      cancelText: t('common.cancel'),
      onOk: () =>
        remove.mutateAsync(api.id).then(
          () => void message.success(t('apis.messages.deleted')),
          () => void message.error(t('apis.messages.deleteFailed')),
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
