import '../i18n/bots-texts';
import '../i18n/optimise-texts';
import { OPTIMISATION_ERROR_CODES } from '@quantsquare/contracts';
import { App, Card, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiRequestError } from '../api/client';
import { errorMessage } from '../api/errors';
import { fieldErrorText } from '../api/field-errors';
import {
  useCancelOptimisation,
  useCreateOptimisation,
  useOptimisation,
  useOptimisationSocket,
} from '../api/optimisations';
import { BotCreateModal } from '../features/bots/BotCreateModal';
import { OptimiseForm } from '../features/optimise/OptimiseForm';
import { OptimiseResults } from '../features/optimise/OptimiseResults';
import type { BotPreset } from '../shared/format/bot-format';
import { QueryErrorAlert } from '../shared/ui/QueryState';

const OWN_CODES = new Set<string>(Object.values(OPTIMISATION_ERROR_CODES));

/** /my/optimise: walk-forward parameter optimisation; `?run=<id>` shows a run, `?strategy=` preselects. */
export function OptimisePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [search, setSearch] = useSearchParams();
  const runId = Number(search.get('run')) || null;
  const create = useCreateOptimisation();
  const cancel = useCancelOptimisation();
  const run = useOptimisation(runId);
  const isRunning = run.data?.status === 'running' || run.data?.status === 'queued';
  useOptimisationSocket(runId, run.data === undefined || isRunning);
  const [preset, setPreset] = useState<BotPreset | null>(null);

  /** The refusal in the reader's words: the optimisation's own codes first, then the field's. */
  const refusal = (error: unknown): string | null => {
    if (!error) return null;
    if (error instanceof ApiRequestError && error.body?.fields) {
      const codes = error.body.field_codes ?? {};
      for (const [field, messages] of Object.entries(error.body.fields)) {
        const code = codes[field]?.[0];
        if (code && OWN_CODES.has(code))
          return t(`optimise.errors.${code}` as 'optimise.errors.no_window');
        if (messages[0]) return `${field}: ${fieldErrorText(t, field, code, messages[0])}`;
      }
    }
    return errorMessage(t, error, t('optimise.errors.failed'));
  };

  return (
    <Flex vertical gap={16} data-testid="optimise-page">
      <Card>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {t('optimise.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('optimise.subtitle')}</Typography.Paragraph>
        <OptimiseForm
          initialStrategyType={search.get('strategy') ?? undefined}
          isSubmitting={create.isPending}
          errorText={refusal(create.error)}
          onSubmit={(request) =>
            create.mutate(request, {
              onSuccess: ({ id }) => setSearch({ run: String(id) }),
            })
          }
        />
      </Card>
      {run.isError && (
        <QueryErrorAlert query={run} failedText={t('optimise.errors.loadFailed')} hideRetry />
      )}
      {run.data && (
        <OptimiseResults
          answer={run.data}
          isCancelling={cancel.isPending}
          onCancel={() =>
            cancel.mutate(run.data.id, {
              onSuccess: () => void message.info(t('optimise.cancelled')),
            })
          }
          onUse={setPreset}
        />
      )}
      <BotCreateModal open={preset !== null} preset={preset} onClose={() => setPreset(null)} />
    </Flex>
  );
}
