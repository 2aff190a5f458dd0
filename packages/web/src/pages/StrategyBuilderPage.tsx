import '../i18n/builder-texts';
import { PlusOutlined } from '@ant-design/icons';
import {
  RULE_LIMITS,
  RULE_SLOTS,
  type RuleSlot,
  USER_STRATEGY_DESCRIPTION_MAX_LENGTH,
  USER_STRATEGY_NAME_MAX_LENGTH,
  type UserStrategy,
  type UserStrategyPayload,
} from '@quantsquare/contracts';
import {
  Alert,
  App,
  Button,
  Card,
  Flex,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Typography,
  theme,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiRequestError } from '../api/client';
import { errorMessage } from '../api/errors';
import { fieldErrorText } from '../api/field-errors';
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
import { ConditionEditor } from '../features/strategy-builder/ConditionEditor';
import {
  type EditableRules,
  editableFrom,
  type Problem,
  type ProblemKey,
  ruleProblems,
  starterRules,
  totalLeaves,
} from '../features/strategy-builder/rule-model';
import { chartPalette } from '../shared/charts/palette';
import { describeRules } from '../shared/rules/describe-rules';

/** How long editing must pause before the preview backtest runs. */
const PREVIEW_DEBOUNCE_MS = 600;

interface Draft {
  name: string;
  description: string;
  stopLoss: number | null;
  takeProfit: number | null;
  trailingStop: number | null;
  rules: EditableRules;
}

const newDraft = (): Draft => ({
  name: '',
  description: '',
  stopLoss: null,
  takeProfit: null,
  trailingStop: null,
  rules: starterRules(),
});

const draftOf = (strategy: UserStrategy): Draft => ({
  name: strategy.name,
  description: strategy.description,
  stopLoss: strategy.stop_loss_pct,
  takeProfit: strategy.take_profit_pct,
  trailingStop: strategy.trailing_stop_pct,
  rules: editableFrom(strategy.rules),
});

const payloadOf = (draft: Draft): UserStrategyPayload => ({
  name: draft.name.trim(),
  description: draft.description.trim(),
  rules: draft.rules,
  stop_loss_pct: draft.stopLoss,
  take_profit_pct: draft.takeProfit,
  trailing_stop_pct: draft.trailingStop,
});

/** The slot a server field (`rules.entry_long.all.0.op`) belongs to, or null for the whole set. */
function slotOfField(field: string): RuleSlot | null {
  const slot = field.split('.')[1];
  return RULE_SLOTS.find((name) => name === slot) ?? null;
}

/**
 * /my/strategy-builder (issue 26 §1): a user's rule-based strategies — conditions picked from
 * lists, the rules said as a sentence, invalid input kept from being saved, and a backtest of
 * each saved version (and the dashboard chart with it).
 */
export function StrategyBuilderPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const strategies = useUserStrategies();
  const save = useSaveUserStrategy();
  const remove = useDeleteUserStrategy();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [draft, setDraft] = useState<Draft>(newDraft);
  const [savedDraft, setSavedDraft] = useState<Draft | null>(null);
  const [showProblems, setShowProblems] = useState(false);
  const [serverErrors, setServerErrors] = useState<{ field: string; text: string }[]>([]);

  const { token } = theme.useToken();
  const palette = useMemo(() => chartPalette(token), [token]);
  const saved = strategies.data?.results.find((s) => s.id === selectedId) ?? null;
  const isDirty = savedDraft === null || JSON.stringify(savedDraft) !== JSON.stringify(draft);

  const problems: Problem[] = useMemo(() => ruleProblems(draft.rules), [draft.rules]);
  // The live preview: the rules as they are edited, backtested once editing pauses.
  // The preview's input as text, so that an unchanged draft is one unchanged key.
  const hasProblems = problems.length > 0;
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
  const preview = useRulesPreview(previewInput);
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
  const problemMap = useMemo(
    () => new Map<string, ProblemKey>(problems.map((p) => [p.path, p.key])),
    [problems],
  );
  const isNameMissing = draft.name.trim() === '';
  const sentences = describeRules(t, draft.rules);
  const leaves = totalLeaves(draft.rules);
  const canAddLeaf = leaves < RULE_LIMITS.maxLeaves;

  const pick = (id: number | null) => {
    const strategy = strategies.data?.results.find((s) => s.id === id) ?? null;
    const next = strategy ? draftOf(strategy) : newDraft();
    setSelectedId(strategy?.id ?? null);
    setDraft(next);
    setSavedDraft(strategy ? next : null);
    setShowProblems(false);
    setServerErrors([]);
  };
  const setRules = (slot: RuleSlot, value: EditableRules[RuleSlot]) =>
    setDraft((current) => ({ ...current, rules: { ...current.rules, [slot]: value } }));

  const submit = () => {
    setShowProblems(true);
    setServerErrors([]);
    if (isNameMissing || problems.length > 0) {
      void message.error(t('builder.fixFirst'));
      return;
    }
    save.mutate(
      { id: selectedId, body: payloadOf(draft) },
      {
        onSuccess: (strategy) => {
          void message.success(t('builder.saved'));
          const next = draftOf(strategy);
          setSelectedId(strategy.id);
          setDraft(next);
          setSavedDraft(next);
          setShowProblems(false);
        },
        onError: (error) => {
          const body = error instanceof ApiRequestError ? error.body : null;
          const fields = body?.fields ?? {};
          const codes = body?.field_codes ?? {};
          const list = Object.entries(fields).map(([field, messages]) => {
            const code = codes[field]?.[0];
            const own = code ? t(`builder.codes.${code}` as never, { defaultValue: '' }) : '';
            return {
              field,
              text: own || fieldErrorText(t, field, code, messages[0] ?? ''),
            };
          });
          if (list.length > 0) setServerErrors(list);
          else {
            const code = body?.code ?? '';
            const own = t(`builder.codes.${code}` as never, { defaultValue: '' });
            void message.error(own || errorMessage(t, error, t('builder.saveFailed')));
          }
        },
      },
    );
  };

  const slotProblems = (slot: RuleSlot) => [
    ...problems
      .filter((p) => p.path === slot || p.path.startsWith(`${slot}.`))
      .map((p) =>
        t(`builder.problems.${p.key}`, {
          min: 1,
          max: p.key === 'offsetRange' ? RULE_LIMITS.maxOffset : RULE_LIMITS.maxPeriod,
        }),
      ),
    ...serverErrors.filter((e) => slotOfField(e.field) === slot).map((e) => e.text),
  ];
  const generalErrors = [
    ...(leaves > RULE_LIMITS.maxLeaves
      ? [t('builder.problems.tooManyLeaves', { max: RULE_LIMITS.maxLeaves })]
      : []),
    ...serverErrors
      .filter((e) => e.field.startsWith('rules') && slotOfField(e.field) === null)
      .map((e) => e.text),
  ];

  return (
    <Flex vertical gap={16} data-testid="strategy-builder">
      <div>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('builder.title')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('builder.subtitle')}</Typography.Text>
      </div>

      <Flex wrap gap={8} align="center">
        <Select<number>
          data-testid="strategy-picker"
          aria-label={t('builder.pick')}
          placeholder={t('builder.pick')}
          loading={strategies.isPending}
          value={selectedId ?? undefined}
          onChange={(id) => pick(id)}
          options={(strategies.data?.results ?? []).map((s) => ({ value: s.id, label: s.name }))}
          style={{ minWidth: 220, flex: '1 1 220px', maxWidth: 360 }}
        />
        <Button icon={<PlusOutlined />} onClick={() => pick(null)} data-testid="new-strategy">
          {t('builder.newStrategy')}
        </Button>
        <Link
          to={saved ? `/my/optimise?strategy=${encodeURIComponent(saved.type)}` : '/my/optimise'}
          data-testid="builder-optimise-link"
        >
          {t('builder.optimise')}
        </Link>
      </Flex>
      {strategies.isError && <Alert type="error" showIcon title={t('builder.loadFailed')} />}

      <Card size="small">
        <Flex vertical gap={12}>
          <div>
            <Typography.Text strong>{t('builder.name')}</Typography.Text>
            <Input
              data-testid="strategy-name"
              aria-label={t('builder.name')}
              value={draft.name}
              maxLength={USER_STRATEGY_NAME_MAX_LENGTH}
              placeholder={t('builder.namePlaceholder')}
              status={showProblems && isNameMissing ? 'error' : undefined}
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
            />
            {showProblems && isNameMissing && (
              <Typography.Text type="danger" data-testid="name-error">
                {t('builder.nameRequired')}
              </Typography.Text>
            )}
          </div>
          <div>
            <Typography.Text strong>{t('builder.description')}</Typography.Text>
            <Input.TextArea
              aria-label={t('builder.description')}
              value={draft.description}
              maxLength={USER_STRATEGY_DESCRIPTION_MAX_LENGTH}
              autoSize={{ minRows: 1, maxRows: 4 }}
              onChange={(e) => setDraft({ ...draft, description: e.target.value })}
            />
          </div>
          <div>
            <Typography.Text strong>{t('builder.protections')}</Typography.Text>
            <Flex wrap gap={8} style={{ marginTop: 4 }}>
              {(
                [
                  ['stopLoss', 'builder.stopLoss', 50],
                  ['takeProfit', 'builder.takeProfit', 100],
                  ['trailingStop', 'builder.trailingStop', 50],
                ] as const
              ).map(([field, label, max]) => (
                <InputNumber<number>
                  key={field}
                  aria-label={t(label)}
                  prefix={t(label)}
                  min={0.1}
                  max={max}
                  step={0.5}
                  value={draft[field]}
                  onChange={(value) => setDraft({ ...draft, [field]: value ?? null })}
                  style={{ width: 180 }}
                />
              ))}
            </Flex>
          </div>
        </Flex>
      </Card>

      <Card
        size="small"
        data-testid="rules-card"
        title={t('builder.rules')}
        extra={
          <Typography.Text type="secondary" data-testid="leaf-count">
            {t('builder.limitsHint', { count: leaves, max: RULE_LIMITS.maxLeaves })}
          </Typography.Text>
        }
      >
        <Flex vertical gap={16}>
          {RULE_SLOTS.map((slot) => {
            const condition = draft.rules[slot];
            const messages = showProblems || serverErrors.length > 0 ? slotProblems(slot) : [];
            return (
              <Flex key={slot} vertical gap={6} data-testid={`slot-${slot}`}>
                <Typography.Text strong>{t(`builder.slots.${slot}`)}</Typography.Text>
                {condition ? (
                  <ConditionEditor
                    value={condition}
                    onChange={(next) => setRules(slot, next)}
                    onRemove={() => setRules(slot, null)}
                    path={slot}
                    depth={1}
                    canAddLeaf={canAddLeaf}
                    problems={problemMap}
                  />
                ) : (
                  <Button
                    size="small"
                    icon={<PlusOutlined />}
                    disabled={!canAddLeaf}
                    data-testid="set-condition"
                    onClick={() =>
                      setRules(slot, {
                        left: { indicator: 'sma', period: 10 },
                        op: slot.startsWith('exit') ? 'crosses_below' : 'crosses_above',
                        right: { indicator: 'sma', period: 30 },
                      })
                    }
                    style={{ alignSelf: 'flex-start' }}
                  >
                    {t('builder.setCondition')}
                  </Button>
                )}
                {messages.map((text) => (
                  <Typography.Text key={text} type="danger" data-testid="field-error">
                    {text}
                  </Typography.Text>
                ))}
              </Flex>
            );
          })}
          {generalErrors.map((text) => (
            <Typography.Text key={text} type="danger" data-testid="field-error">
              {text}
            </Typography.Text>
          ))}
        </Flex>
      </Card>

      <Card size="small" title={t('builder.sentence.title')}>
        <Flex vertical gap={4} data-testid="rule-sentence">
          {sentences.length === 0 ? (
            <Typography.Text type="secondary">{t('builder.sentence.none')}</Typography.Text>
          ) : (
            sentences.map((text) => <Typography.Text key={text}>{text}</Typography.Text>)
          )}
        </Flex>
      </Card>

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
          <Popconfirm
            title={t('builder.deleteConfirm')}
            onConfirm={() =>
              remove.mutate(saved.id, {
                onSuccess: () => {
                  void message.success(t('builder.deleted'));
                  pick(null);
                },
                onError: (error) => {
                  const code = error instanceof ApiRequestError ? (error.body?.code ?? '') : '';
                  const own = t(`builder.codes.${code}` as never, { defaultValue: '' });
                  void message.error(own || errorMessage(t, error, t('builder.deleteFailed')));
                },
              })
            }
          >
            <Button danger data-testid="delete-strategy">
              {t('builder.delete')}
            </Button>
          </Popconfirm>
        )}
      </Flex>

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
            isLoading={preview.isPending && previewInput !== null}
            isError={preview.isError}
            palette={palette}
            viewKey="builder-preview"
            height={300}
          />
          <EquityPanel
            curve={preview.data?.backtest.equity_curve}
            fallbackTimesMs={candleTimesMs}
            isLoading={preview.isPending && previewInput !== null}
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
          {saved && !isDirty && (
            <Link to={`/dashboard?strategy=${encodeURIComponent(saved.type)}`}>
              {t('builder.preview.openDashboard')}
            </Link>
          )}
        </Flex>
      </Card>

      <Alert
        type="info"
        showIcon
        title={t('builder.vipHint')}
        description={<Link to="/my/profile">{t('builder.vipLink')}</Link>}
      />
    </Flex>
  );
}
