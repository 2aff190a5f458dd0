import '../i18n/builder-texts';
import { PlusOutlined } from '@ant-design/icons';
import type { UserStrategy } from '@quantsquare/contracts';
import { Alert, Button, Card, Flex, Popconfirm, Select, Typography, theme } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../api/errors';
import {
  PREVIEW_MARKET,
  type RulesPreview,
  useDeleteUserStrategy,
  useRulesPreview,
  useSaveUserStrategy,
  useUserStrategies,
} from '../api/user-strategies';
import { BacktestSummary } from '../features/dashboard/BacktestSummary';
import { CandlePanel, EquityPanel } from '../features/dashboard/ChartPanels';
import {
  DraftDetailsCard,
  RulesCard,
  SentenceCard,
} from '../features/strategy-builder/BuilderCards';
import {
  type Problem,
  type ProblemKey,
  ruleProblems,
  totalLeaves,
} from '../features/strategy-builder/rule-model';
import {
  type Draft,
  ruleMessages,
  useDeleteStrategy,
  useSaveStrategy,
  useStrategyDraft,
} from '../features/strategy-builder/use-strategy-draft';
import { chartPalette } from '../shared/charts/palette';

/** How long editing must pause before the preview backtest runs. */
const PREVIEW_DEBOUNCE_MS = 600;

/**
 * The live preview: the rules as they are edited, backtested once editing pauses (none while
 * they have problems).
 */
function useDraftPreview(draft: Draft, hasProblems: boolean) {
  // The preview's input as text, so that an unchanged draft is one unchanged key.
  const previewKey = !hasProblems
    ? JSON.stringify({
        rules: draft.rules,
        stopLossPct: draft.stopLoss,
        takeProfitPct: draft.takeProfit,
        trailingStopPct: draft.trailingStop,
      } satisfies RulesPreview)
    : null;
  const [settledKey, setSettledKey] = useState<string | null>(null);
  useEffect(() => {
    if (previewKey === null) return;
    const timer = setTimeout(() => setSettledKey(previewKey), PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [previewKey]);
  const previewInput = useMemo(
    () => (settledKey === null ? null : (JSON.parse(settledKey) as RulesPreview)),
    [settledKey],
  );
  return { preview: useRulesPreview(previewInput), hasInput: previewInput !== null };
}

/** The preview backtest's chart, equity and summary, and the way to the dashboard once saved. */
function PreviewCard({
  draft,
  hasProblems,
  dashboardStrategy,
}: {
  draft: Draft;
  hasProblems: boolean;
  /** The saved, unchanged strategy's type (null: no dashboard link). */
  dashboardStrategy: string | null;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const palette = useMemo(() => chartPalette(token), [token]);
  const { preview, hasInput } = useDraftPreview(draft, hasProblems);
  const previewChart = preview.data && {
    exchange: preview.data.exchange,
    symbol: preview.data.symbol,
    timeframe: preview.data.timeframe,
    source: preview.data.source,
    strategy_type: preview.data.strategy_type,
    candles: preview.data.candles,
    indicators: preview.data.indicators,
  };
  const candleTimesMs = useMemo(
    () => (preview.data?.candles ?? []).map((c) => c.timestamp),
    [preview.data],
  );
  return (
    <Card size="small" title={t('builder.preview.title')} data-testid="strategy-preview">
      <Flex vertical gap={8}>
        <Typography.Text type="secondary">
          {t('builder.preview.hint', {
            symbol: PREVIEW_MARKET.symbol,
            timeframe: PREVIEW_MARKET.timeframe,
            limit: PREVIEW_MARKET.limit,
          })}
        </Typography.Text>
        {hasProblems && (
          <Typography.Text type="warning">{t('builder.preview.paused')}</Typography.Text>
        )}
        <CandlePanel
          data={previewChart}
          isLoading={preview.isPending && hasInput}
          isError={preview.isError}
          palette={palette}
          viewKey="builder-preview"
          height={300}
        />
        <EquityPanel
          curve={preview.data?.backtest.equity_curve}
          fallbackTimesMs={candleTimesMs}
          isLoading={preview.isPending && hasInput}
          palette={palette}
          height={180}
        />
        <BacktestSummary
          summary={preview.data?.backtest}
          isLoading={preview.isPending}
          failure={
            preview.isError ? errorMessage(t, preview.error, t('builder.preview.failed')) : null
          }
        />
        {dashboardStrategy !== null && (
          <Link to={`/dashboard?strategy=${encodeURIComponent(dashboardStrategy)}`}>
            {t('builder.preview.openDashboard')}
          </Link>
        )}
      </Flex>
    </Card>
  );
}

/** The strategy picker, a new strategy, and the way to optimise the picked one. */
function StrategyPicker({
  strategies,
  isLoading,
  selectedId,
  saved,
  onPick,
}: {
  strategies: readonly UserStrategy[];
  isLoading: boolean;
  selectedId: number | null;
  saved: UserStrategy | null;
  onPick: (id: number | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <Flex wrap gap={8} align="center">
      <Select<number>
        data-testid="strategy-picker"
        aria-label={t('builder.pick')}
        placeholder={t('builder.pick')}
        loading={isLoading}
        value={selectedId ?? undefined}
        onChange={(id) => onPick(id)}
        options={strategies.map((s) => ({ value: s.id, label: s.name }))}
        style={{ minWidth: 220, flex: '1 1 220px', maxWidth: 360 }}
      />
      <Button icon={<PlusOutlined />} onClick={() => onPick(null)} data-testid="new-strategy">
        {t('builder.newStrategy')}
      </Button>
      <Link
        to={saved ? `/my/optimise?strategy=${encodeURIComponent(saved.type)}` : '/my/optimise'}
        data-testid="builder-optimise-link"
      >
        {t('builder.optimise')}
      </Link>
    </Flex>
  );
}

/**
 * /my/strategy-builder (issue 26 §1): a user's rule-based strategies — conditions picked from
 * lists, the rules said as a sentence, invalid input kept from being saved, and a backtest of
 * each saved version (and the dashboard chart with it).
 */
export function StrategyBuilderPage() {
  const { t } = useTranslation();
  const strategies = useUserStrategies();
  const save = useSaveUserStrategy();
  const remove = useDeleteUserStrategy();
  const state = useStrategyDraft(strategies.data?.results);
  const { draft, saved, showProblems, serverErrors } = state;

  const problems: Problem[] = useMemo(() => ruleProblems(draft.rules), [draft.rules]);
  const hasProblems = problems.length > 0;
  const problemMap = useMemo(
    () => new Map<string, ProblemKey>(problems.map((p) => [p.path, p.key])),
    [problems],
  );
  const isNameMissing = draft.name.trim() === '';
  const leaves = totalLeaves(draft.rules);
  const messages = ruleMessages(t, problems, serverErrors, leaves);
  const submit = useSaveStrategy(state, !isNameMissing && !hasProblems, save);
  const deleteStrategy = useDeleteStrategy(state, remove);

  return (
    <Flex vertical gap={16} data-testid="strategy-builder">
      <div>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('builder.title')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('builder.subtitle')}</Typography.Text>
      </div>

      <StrategyPicker
        strategies={strategies.data?.results ?? []}
        isLoading={strategies.isPending}
        selectedId={state.selectedId}
        saved={saved}
        onPick={state.pick}
      />
      {strategies.isError && <Alert type="error" showIcon title={t('builder.loadFailed')} />}

      <DraftDetailsCard
        draft={draft}
        onChange={state.setDraft}
        isNameRefused={showProblems && isNameMissing}
      />
      <RulesCard
        rules={draft.rules}
        onSlotChange={state.setRules}
        leaves={leaves}
        problems={problemMap}
        slotMessages={(slot) =>
          showProblems || serverErrors.length > 0 ? messages.forSlot(slot) : []
        }
        generalErrors={messages.general}
      />
      <SentenceCard rules={draft.rules} />

      <Flex wrap gap={8}>
        <Button
          type="primary"
          loading={save.isPending}
          onClick={submit}
          data-testid="save-strategy"
        >
          {t('builder.save')}
        </Button>
        {saved && (
          <Popconfirm title={t('builder.deleteConfirm')} onConfirm={() => deleteStrategy(saved.id)}>
            <Button danger data-testid="delete-strategy">
              {t('builder.delete')}
            </Button>
          </Popconfirm>
        )}
      </Flex>

      <PreviewCard
        draft={draft}
        hasProblems={hasProblems}
        dashboardStrategy={saved && !state.isDirty ? saved.type : null}
      />

      <Alert
        type="info"
        showIcon
        title={t('builder.vipHint')}
        description={<Link to="/my/profile">{t('builder.vipLink')}</Link>}
      />
    </Flex>
  );
}
