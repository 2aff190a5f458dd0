import {
  type OptimisationAnswer,
  type OptimisationCombinationResult,
  OVERFITTING_RATIO_WARNING,
} from '@quantsquare/contracts';
import { Alert, Button, Card, Descriptions, Flex, Progress, Table, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { BotPreset } from '../../shared/format/bot-format';
import { formatPlain } from '../../shared/format/money';
import { HeatMap } from './HeatMap';
import { botPresetOf, gridNames, parameterLabel } from './optimise-grid';

interface Props {
  answer: OptimisationAnswer;
  isCancelling: boolean;
  onCancel: () => void;
  onUse: (preset: BotPreset) => void;
}

const STATUS_COLOURS = {
  queued: 'default',
  running: 'processing',
  completed: 'success',
  cancelled: 'warning',
  failed: 'error',
} as const;

const format = (value: number | null | undefined, digits = 3) => formatPlain(value, digits);

/** The results table's columns: rank, the grid's parameters, both objectives and their ratio. */
function resultColumns(t: TFunction, names: readonly string[]) {
  return [
    {
      title: t('optimise.columns.rank'),
      key: 'rank',
      width: 48,
      render: (_: unknown, __: OptimisationCombinationResult, index: number) => index + 1,
    },
    ...names.map((name) => ({
      title: parameterLabel(t, name),
      key: name,
      render: (_: unknown, row: OptimisationCombinationResult) => row.parameters[name],
    })),
    {
      title: t('optimise.inSampleObjective'),
      key: 'in',
      render: (_: unknown, row: OptimisationCombinationResult) => format(row.in_sample_objective),
    },
    {
      title: t('optimise.outOfSampleObjective'),
      key: 'out',
      render: (_: unknown, row: OptimisationCombinationResult) =>
        format(row.out_of_sample_objective),
    },
    {
      title: t('optimise.columns.ratio'),
      key: 'ratio',
      render: (_: unknown, row: OptimisationCombinationResult) => format(row.overfitting_ratio, 2),
    },
  ];
}

/** The run's status, progress and windows, with cancel while it runs. */
function RunProgress({ answer, isCancelling, onCancel }: Omit<Props, 'onUse'>) {
  const { t } = useTranslation();
  const isRunning = answer.status === 'running' || answer.status === 'queued';
  const total = answer.combination_count - answer.skipped.length;
  const percent = Math.round(answer.progress * 100);
  return (
    <Card size="small">
      <Flex vertical gap={8}>
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Flex align="center" gap={8} wrap>
            <Typography.Text strong>{t('optimise.progress')}</Typography.Text>
            <Tag color={STATUS_COLOURS[answer.status]} data-testid="optimise-status">
              {t(`optimise.status.${answer.status}`)}
            </Tag>
            <Typography.Text type="secondary">
              {t(`optimise.objectives.${answer.objective}`)}
            </Typography.Text>
          </Flex>
          {isRunning && (
            <Button
              danger
              size="small"
              loading={isCancelling}
              onClick={onCancel}
              data-testid="optimise-cancel"
            >
              {t('optimise.cancel')}
            </Button>
          )}
        </Flex>
        <Progress percent={percent} data-testid="optimise-progress" />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('optimise.progressCount', { done: answer.completed_count, total })} ·{' '}
          {t('optimise.windows', {
            count: answer.windows.length,
            candles: answer.candle_count,
            source: t(`optimise.sources.${answer.source}`),
          })}
        </Typography.Text>
        {answer.skipped.length > 0 && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('optimise.skipped', { count: answer.skipped.length })}
          </Typography.Text>
        )}
      </Flex>
    </Card>
  );
}

/** A run's progress, its best parameters with the overfitting warning, the heat map and table. */
export function OptimiseResults({ answer, isCancelling, onCancel, onUse }: Props) {
  const { t } = useTranslation();
  const names = useMemo(() => gridNames(answer), [answer]);
  const best = answer.best;
  const rows = useMemo(
    () => [...answer.results].sort((a, b) => b.out_of_sample_objective - a.out_of_sample_objective),
    [answer.results],
  );
  const columns = resultColumns(t, names);

  return (
    <Flex vertical gap={16} data-testid="optimise-results">
      <RunProgress answer={answer} isCancelling={isCancelling} onCancel={onCancel} />

      <Card size="small" title={t('optimise.best')} data-testid="optimise-best">
        {best ? (
          <Flex vertical gap={12}>
            <Flex gap={6} wrap data-testid="optimise-best-parameters">
              {Object.entries(best.parameters).map(([name, value]) => (
                <Tag key={name} color="blue">
                  {parameterLabel(t, name)} = {value}
                </Tag>
              ))}
            </Flex>
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 3 }}
              items={[
                {
                  key: 'in',
                  label: t('optimise.inSampleObjective'),
                  children: format(best.in_sample_objective),
                },
                {
                  key: 'out',
                  label: t('optimise.outOfSampleObjective'),
                  children: format(best.out_of_sample_objective),
                },
                {
                  key: 'ratio',
                  label: t('optimise.overfittingRatio'),
                  children: (
                    <span
                      data-testid="optimise-overfitting-ratio"
                      title={t('optimise.overfittingHelp')}
                    >
                      {format(answer.overfitting_ratio, 2)}
                    </span>
                  ),
                },
              ]}
            />
            {answer.warning && (
              <Alert
                type="warning"
                showIcon
                title={t(`optimise.warnings.${answer.warning}`, {
                  limit: OVERFITTING_RATIO_WARNING,
                })}
                data-testid="optimise-warning"
              />
            )}
            <div>
              <Button
                type="primary"
                onClick={() => onUse(botPresetOf(answer, best.parameters))}
                data-testid="optimise-use"
              >
                {t('optimise.useParameters')}
              </Button>
            </div>
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('optimise.noBest')}</Typography.Text>
        )}
      </Card>

      {answer.results.length > 0 && (
        <Card size="small" title={t('optimise.heatMap')}>
          <HeatMap names={names} results={answer.results} formatValue={(v) => format(v, 2)} />
        </Card>
      )}

      <Card size="small" title={t('optimise.results')}>
        <Table<OptimisationCombinationResult>
          size="small"
          rowKey="index"
          dataSource={rows}
          columns={columns}
          pagination={{ pageSize: 10, showSizeChanger: false }}
          scroll={{ x: 'max-content' }}
          data-testid="optimise-table"
        />
      </Card>
    </Flex>
  );
}
