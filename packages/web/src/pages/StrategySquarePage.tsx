import '../i18n/square-texts';
import '../features/square/square.css';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  SQUARE_PAGE_SIZE,
  type SquareQuickTag,
  type SquareStats,
  type StrategyCard,
} from '@quantsquare/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Skeleton, Typography } from 'antd';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useProfile } from '../api/auth';
import { errorMessage } from '../api/errors';
import { type SearchMode, type SquareListParams, squareKeys, useStrategyList } from '../api/square';
import { useIsLoggedIn } from '../api/tokens';
import { CopyModalHost, type CopyTarget } from '../features/copy-trading/CopyModalHost';
import { SquarePager } from '../features/square/SquarePager';
import { SquareToolbar, type SquareView } from '../features/square/SquareToolbar';
import { StrategyCardView, useToneColor } from '../features/square/StrategyCardView';
import { StrategyListTable } from '../features/square/StrategyListTable';
import {
  applyQuickTag,
  changeFilters,
  readFilters,
  writeFilters,
} from '../features/square/square-filters';
import { abbreviateNumber, formatPercent } from '../shared/format/money';
import { useIsMobile } from '../shared/ui/use-is-mobile';

const VIEW_STORAGE_KEY = 'qs.squareView';
const SKELETON_CARDS = [1, 2, 3, 4, 5, 6];

function readView(): SquareView {
  try {
    return localStorage.getItem(VIEW_STORAGE_KEY) === 'list' ? 'list' : 'grid';
  } catch {
    return 'grid';
  }
}

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
        {label}
      </Typography.Text>
      <div style={{ fontSize: 20, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
        {children}
      </div>
    </div>
  );
}

function SquareStatsBar({ stats }: { stats: SquareStats | undefined }) {
  const { t, i18n } = useTranslation();
  const tone = useToneColor();
  const locale = i18n.language;
  return (
    <Card size="small" data-testid="square-stats">
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fit, minmax(120px, 1fr))',
          gap: 12,
        }}
      >
        <Stat label={t('square.stats.total')}>
          <span data-testid="square-stats-total">
            {stats ? abbreviateNumber(stats.total, locale, 0) : '—'}
          </span>
        </Stat>
        <Stat label={t('square.stats.active')}>
          {stats ? abbreviateNumber(stats.active, locale, 0) : '—'}
        </Stat>
        <Stat label={t('square.stats.copiers')}>
          {stats ? abbreviateNumber(stats.copiers, locale, 0) : '—'}
        </Stat>
        <Stat label={t('square.stats.avgReturn')}>
          <span style={{ color: stats ? tone(stats.avg_return) : undefined }}>
            {stats ? formatPercent(stats.avg_return, locale, true) : '—'}
          </span>
        </Stat>
      </div>
    </Card>
  );
}

/** The square's title, and the button to publish a strategy (to log in first, for visitors). */
function SquareHeader({ isLoggedIn }: { isLoggedIn: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Flex justify="space-between" align="center" gap={12} wrap>
      <div style={{ minWidth: 0 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('square.title')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('square.subtitle')}</Typography.Text>
      </div>
      <Button
        type="primary"
        icon={<PlusOutlined />}
        onClick={() => navigate(isLoggedIn ? '/my/strategies/create' : '/login')}
        data-testid="square-publish"
      >
        {t('square.publish')}
      </Button>
    </Flex>
  );
}

/** The strategies of the page, as cards or a list. */
function SquareResults({
  strategies,
  count,
  view,
  period,
  viewerId,
  isRefreshing,
  onCopy,
}: {
  strategies: StrategyCard[];
  count: number;
  view: SquareView;
  period: SquareListParams['period'];
  viewerId: number | null;
  isRefreshing: boolean;
  onCopy: (strategy: StrategyCard) => void;
}) {
  const { t } = useTranslation();
  if (strategies.length === 0) return null;
  return (
    <Flex vertical gap={8} style={{ opacity: isRefreshing ? 0.6 : 1, transition: 'opacity 0.2s' }}>
      <Typography.Text type="secondary" data-testid="square-count">
        {t('square.resultCount', { count })}
      </Typography.Text>
      {view === 'grid' ? (
        <div style={gridStyle} data-testid="square-grid">
          {strategies.map((strategy) => (
            <StrategyCardView
              key={strategy.id}
              strategy={strategy}
              viewerId={viewerId}
              onCopy={onCopy}
            />
          ))}
        </div>
      ) : (
        <StrategyListTable
          strategies={strategies}
          period={period}
          viewerId={viewerId}
          isLoading={false}
          onCopy={onCopy}
        />
      )}
    </Flex>
  );
}

/** /strategy-square: public strategies with search, filters, quick tags and paging (document 2 §2). */
export function StrategySquarePage() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const isLoggedIn = useIsLoggedIn();
  const profile = useProfile();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => readFilters(searchParams), [searchParams]);
  const [view, setView] = useState<SquareView>(readView);
  // Why a strategy or profile could not be opened (they send the user here, document 2 §8).
  const notice = (useLocation().state as { notice?: unknown } | null)?.notice;
  const list = useStrategyList(filters);
  const viewerId = isLoggedIn ? (profile.data?.id ?? null) : null;
  const [copyTarget, setCopyTarget] = useState<CopyTarget | null>(null);
  const copy = (strategy: StrategyCard) =>
    setCopyTarget({ id: strategy.id, name: strategy.name, exchange: strategy.exchange });

  const setFilters = useCallback(
    (next: SquareListParams) => setSearchParams(writeFilters(next)),
    [setSearchParams],
  );
  const change = useCallback(
    (patch: Partial<SquareListParams>) => setFilters(changeFilters(filters, patch)),
    [filters, setFilters],
  );
  // A new search mode clears the text and loads the list again (document 2 §4).
  const changeMode = (mode: SearchMode) => {
    setFilters(changeFilters(filters, { mode, search: '' }));
    void queryClient.invalidateQueries({ queryKey: squareKeys.lists() });
  };
  const quickTag = (tag: SquareQuickTag) => setFilters(applyQuickTag(filters, tag));
  const changeView = (next: SquareView) => {
    setView(next);
    try {
      localStorage.setItem(VIEW_STORAGE_KEY, next);
    } catch {
      // Remembered for this visit only when storage is unavailable.
    }
  };

  // A failed load empties the list (document 2 §8) instead of showing stale strategies.
  const strategies = list.isError ? [] : (list.data?.results ?? []);
  const count = list.isError ? 0 : (list.data?.count ?? 0);
  const totalPages = Math.ceil(count / SQUARE_PAGE_SIZE);
  const isRefreshing = list.isFetching && list.isPlaceholderData;

  return (
    <Flex vertical gap={16} data-testid="square-page">
      <SquareHeader isLoggedIn={isLoggedIn} />
      {typeof notice === 'string' && (
        <Alert type="warning" showIcon closable title={notice} data-testid="square-notice" />
      )}
      <SquareStatsBar stats={list.isError ? undefined : list.data?.stats} />
      <SquareToolbar
        filters={filters}
        onChange={change}
        onModeChange={changeMode}
        onQuickTag={quickTag}
        view={view}
        onViewChange={changeView}
        isMobile={isMobile}
      />
      {list.isError && (
        <Alert
          type="error"
          showIcon
          title={errorMessage(t, list.error, t('square.loadFailed'))}
          data-testid="square-error"
          action={
            <Button size="small" icon={<ReloadOutlined />} onClick={() => void list.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      )}
      {list.isPending && (
        <div style={gridStyle}>
          {SKELETON_CARDS.map((n) => (
            <Card key={n} size="small">
              <Skeleton active />
            </Card>
          ))}
        </div>
      )}
      {!list.isPending && strategies.length === 0 && (
        <Card>
          <Empty description={t('square.empty')} data-testid="square-empty" />
        </Card>
      )}
      <SquareResults
        strategies={strategies}
        count={count}
        view={view}
        period={filters.period}
        viewerId={viewerId}
        isRefreshing={isRefreshing}
        onCopy={copy}
      />
      <SquarePager
        page={filters.page}
        totalPages={totalPages}
        onChange={(page) => {
          change({ page });
          window.scrollTo({ top: 0 });
        }}
        isCompact={isMobile}
      />
      <CopyModalHost target={copyTarget} onClose={() => setCopyTarget(null)} />
    </Flex>
  );
}

const gridStyle = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 280px), 1fr))',
  gap: 16,
} as const;
