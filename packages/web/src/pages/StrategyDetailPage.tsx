import '../i18n/square-texts';
import '../features/square/square.css';
import {
  LIVE_TRADES_KEPT,
  SQUARE_DEFAULT_PERIOD,
  type SquarePeriod,
  type StrategyDetail,
  type StrategySocketFrame,
  type StrategyTradeList,
} from '@quantsquare/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Card, Flex, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiRequestError } from '../api/client';
import { errorMessage } from '../api/errors';
import {
  squareKeys,
  useStrategyDetail,
  useStrategyPositions,
  useStrategyTrades,
  useToggleFollow,
} from '../api/square';
import { useStrategyLive } from '../api/strategy-socket';
import { useIsLoggedIn } from '../api/tokens';
import { CopyModalHost, type CopyTarget } from '../features/copy-trading/CopyModalHost';
import { CommentsSection } from '../features/square/CommentsSection';
import { CopyTradeButton } from '../features/square/CopyTradeButton';
import { EquityPanel } from '../features/square/EquityPanel';
import { LiveCheckPanel } from '../features/square/LiveCheckPanel';
import { LiveTrades } from '../features/square/LiveTrades';
import { PositionsGrid } from '../features/square/PositionsGrid';
import { StrategyAbout } from '../features/square/StrategyAbout';
import { FollowButton, StrategyHeader } from '../features/square/StrategyHeader';
import { StrategyRules } from '../features/square/StrategyRules';
import { StrategyStats } from '../features/square/StrategyStats';
import { squareErrorText } from '../shared/errors/square-errors';
import { parseRouteId, prependTrade } from '../shared/format/square-format';
import { useIsMobile } from '../shared/ui/use-is-mobile';

/** Keeps the page's cached data in step with the live frames (document 2 §4). */
function useLiveUpdates(id: number | null, strategy: StrategyDetail | undefined) {
  const queryClient = useQueryClient();
  const applyFrame = (frame: StrategySocketFrame) => {
    if (id === null) return;
    switch (frame.type) {
      case 'trade_update': {
        const trade = frame.data;
        queryClient.setQueryData<StrategyTradeList>(squareKeys.trades(id), (current) => ({
          results: prependTrade(current?.results ?? [], trade, LIVE_TRADES_KEPT),
          count: (current?.count ?? 0) + 1,
        }));
        // The chart gets the trade's marker at once.
        queryClient.setQueriesData<StrategyDetail>({ queryKey: squareKeys.details(id) }, (d) =>
          d
            ? {
                ...d,
                trades: [
                  ...d.trades,
                  { timestamp: trade.timestamp, type: trade.side, effect: trade.effect },
                ],
              }
            : d,
        );
        break;
      }
      case 'position_update':
        queryClient.setQueryData(squareKeys.positions(id), {
          results: frame.data,
          count: frame.data.length,
        });
        break;
      case 'statistics_update':
        queryClient.setQueriesData<StrategyDetail>({ queryKey: squareKeys.details(id) }, (d) =>
          d ? { ...d, ...frame.data } : d,
        );
        break;
      // The missed trades cannot be replayed: reload them.
      case 'resync':
        void queryClient.invalidateQueries({ queryKey: squareKeys.trades(id) });
        break;
      default:
        break;
    }
  };
  const reload = (tradesReplayed = false) => {
    if (id === null) return;
    void queryClient.invalidateQueries({ queryKey: squareKeys.details(id) });
    if (!tradesReplayed) void queryClient.invalidateQueries({ queryKey: squareKeys.trades(id) });
    void queryClient.invalidateQueries({ queryKey: squareKeys.positions(id) });
  };
  return useStrategyLive(strategy ? id : null, {
    onFrame: applyFrame,
    onReconnected: reload,
    // No longer public: reloading the strategy answers 404, which leaves the page.
    onGone: () => reload(),
  });
}

/** The live sections the owner shows: trades, positions and comments. */
function LiveSections({
  strategy,
  trades,
  positions,
}: {
  strategy: StrategyDetail;
  trades: ReturnType<typeof useStrategyTrades>;
  positions: ReturnType<typeof useStrategyPositions>;
}) {
  const { t } = useTranslation();
  return (
    <>
      {strategy.share_settings.show_trades && (
        <LiveTrades
          trades={trades.data?.results ?? []}
          isLoading={trades.isPending}
          errorText={
            trades.isError ? squareErrorText(t, trades.error, t('strategy.trades.empty')) : null
          }
        />
      )}
      {strategy.share_settings.show_positions && (
        <PositionsGrid
          positions={positions.data?.results ?? []}
          isLoading={positions.isPending}
          errorText={
            positions.isError
              ? squareErrorText(t, positions.error, t('strategy.positions.empty'))
              : null
          }
        />
      )}
      {strategy.share_settings.allow_comments && <CommentsSection strategyId={strategy.id} />}
    </>
  );
}

/**
 * Leaves for the square, with the reason, when the strategy cannot be loaded (§8). A passing
 * glitch on a page already shown does not; a strategy gone private (404) does.
 */
function useLeaveWhenGone(id: number | null, loadError: Error | null, isShown: boolean) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mustLeave =
    id === null ||
    (loadError !== null &&
      (!isShown || (loadError instanceof ApiRequestError && loadError.status === 404)));
  useEffect(() => {
    if (!mustLeave) return;
    let notice = t('strategy.errors.notFound');
    if (loadError instanceof ApiRequestError && loadError.status >= 500) {
      notice = t('strategy.errors.server');
    } else if (loadError && !(loadError instanceof ApiRequestError && loadError.status === 404)) {
      notice = t('strategy.errors.failed', {
        message: errorMessage(t, loadError, t('errors.generic')),
      });
    }
    navigate('/strategy-square', { replace: true, state: { notice } });
  }, [mustLeave, loadError, navigate, t]);
}

/** The page while the strategy loads. */
function DetailSkeleton() {
  return (
    <Flex vertical gap={16}>
      <Card>
        <Skeleton avatar active paragraph={{ rows: 2 }} />
      </Card>
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    </Flex>
  );
}

/** /strategy/{id}: one public strategy with its live trades, positions and comments (document 2 §2). */
export function StrategyDetailPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const isLoggedIn = useIsLoggedIn();
  const params = useParams();
  const id = parseRouteId(params.id);
  const [period, setPeriod] = useState<SquarePeriod>(SQUARE_DEFAULT_PERIOD);
  const detail = useStrategyDetail(id, period);
  const strategy = detail.data;
  const settings = strategy?.share_settings;
  const trades = useStrategyTrades(id ?? 0, id !== null && settings?.show_trades === true);
  const positions = useStrategyPositions(id ?? 0, id !== null && settings?.show_positions === true);
  const follow = useToggleFollow();
  const liveStatus = useLiveUpdates(id, strategy);
  const [copyTarget, setCopyTarget] = useState<CopyTarget | null>(null);

  useLeaveWhenGone(id, detail.error, strategy !== undefined);

  if (!strategy) return <DetailSkeleton />;

  const owner = strategy.user_profile;
  const toggleFollow = () => {
    if (!isLoggedIn) {
      navigate('/login');
      return;
    }
    follow.mutate(
      { userId: owner.user_id, follow: !owner.is_following },
      {
        onError: (error) =>
          void modal.error({
            title: squareErrorText(t, error, t('strategy.followFailed')),
          }),
      },
    );
  };
  const openCopy = () =>
    setCopyTarget({ id: strategy.id, name: strategy.name, exchange: strategy.exchange });

  const actions = strategy.is_owner ? null : (
    <>
      <FollowButton
        isFollowing={owner.is_following}
        isPending={follow.isPending}
        onToggle={toggleFollow}
      />
      <CopyTradeButton
        variant="detail"
        acceptsCopy={strategy.share_settings.accept_copy}
        isOwner={strategy.is_owner}
        isCopying={strategy.is_copying}
        onCopy={openCopy}
      />
    </>
  );

  const chart = (
    <>
      <EquityPanel
        strategy={strategy}
        period={period}
        onPeriodChange={setPeriod}
        isMobile={isMobile}
      />
      {strategy.live_vs_backtest && (
        <LiveCheckPanel check={strategy.live_vs_backtest} isMobile={isMobile} />
      )}
    </>
  );
  const about = (
    <>
      <StrategyAbout strategy={strategy} />
      <StrategyRules strategies={strategy.strategies} />
    </>
  );
  const live = <LiveSections strategy={strategy} trades={trades} positions={positions} />;

  return (
    <Flex vertical gap={16} data-testid="strategy-page" data-live={liveStatus}>
      <StrategyHeader strategy={strategy} liveStatus={liveStatus} actions={actions} />
      <StrategyStats strategy={strategy} />
      {isMobile ? (
        <Flex vertical gap={16}>
          {chart}
          {about}
          {live}
        </Flex>
      ) : (
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: 'minmax(0, 2fr) minmax(260px, 1fr)',
            gap: 16,
            alignItems: 'start',
          }}
        >
          <Flex vertical gap={16} style={{ minWidth: 0 }}>
            {chart}
            {live}
          </Flex>
          <Flex vertical gap={16} style={{ minWidth: 0 }}>
            {about}
          </Flex>
        </div>
      )}
      <CopyModalHost target={copyTarget} onClose={() => setCopyTarget(null)} />
    </Flex>
  );
}
