import { LIVE_TRADE_HIGHLIGHT_MS, type StrategyTrade } from '@quantsquare/contracts';
import { Card, Table, type TableColumnsType, Tag } from 'antd';
import { type HTMLAttributes, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tradeEffectKey } from '../../shared/charts/trade-effects';
import { formatAmount, formatMoney } from '../../shared/format/money';
import { formatTradeTime, tradeTimeMs } from '../../shared/format/square-format';

interface Props {
  trades: StrategyTrade[];
  isLoading: boolean;
  errorText: string | null;
}

/**
 * The live trade table (document 2 §2): time, symbol, side, amount, price, value; the latest
 * 20; a row that arrives while the page is open is highlighted for a second.
 */
export function LiveTrades({ trades, isLoading, errorText }: Props) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const [freshIds, setFreshIds] = useState<ReadonlySet<string>>(new Set());
  // Fill ids already on screen; null until the first load, which highlights nothing.
  const seenRef = useRef<Set<string> | null>(null);
  const timersRef = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const timers = timersRef.current;
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, []);

  useEffect(() => {
    if (isLoading) return;
    const ids = trades.map((trade) => trade.id);
    const seen = seenRef.current;
    seenRef.current = new Set(ids);
    if (seen === null) return;
    const fresh = ids.filter((id) => !seen.has(id));
    if (fresh.length === 0) return;
    setFreshIds((current) => new Set([...current, ...fresh]));
    // Each arrival's highlight ends on its own timer, also when more trades follow at once.
    const timer = setTimeout(() => {
      timersRef.current.delete(timer);
      setFreshIds((current) => new Set([...current].filter((id) => !fresh.includes(id))));
    }, LIVE_TRADE_HIGHLIGHT_MS);
    timersRef.current.add(timer);
  }, [trades, isLoading]);

  const columns: TableColumnsType<StrategyTrade> = [
    {
      key: 'time',
      title: t('strategy.trades.time'),
      render: (_, trade) => {
        const timeMs = tradeTimeMs(trade);
        return timeMs === null ? '—' : formatTradeTime(timeMs);
      },
    },
    { key: 'symbol', title: t('strategy.trades.symbol'), dataIndex: 'symbol' },
    {
      key: 'side',
      title: t('strategy.trades.side'),
      render: (_, trade) => (
        <Tag
          color={trade.side === 'buy' ? 'success' : 'error'}
          style={{ marginInlineEnd: 0 }}
          data-testid="strategy-trade-side"
          data-effect={trade.effect}
        >
          {t(`strategy.trades.effects.${tradeEffectKey(trade.side, trade.effect)}`)}
        </Tag>
      ),
    },
    {
      key: 'amount',
      title: t('strategy.trades.amount'),
      align: 'right',
      render: (_, trade) => formatAmount(trade.amount, locale),
    },
    {
      key: 'price',
      title: t('strategy.trades.price'),
      align: 'right',
      render: (_, trade) => formatAmount(trade.price, locale),
    },
    {
      key: 'value',
      title: t('strategy.trades.value'),
      align: 'right',
      // amount × price (document 2 §2), as the server computed it from the decimal figures.
      render: (_, trade) => formatMoney(trade.value, locale),
    },
  ];

  return (
    <Card size="small" title={t('strategy.trades.title')} data-testid="strategy-trades">
      <Table<StrategyTrade>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={trades}
        loading={isLoading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: errorText ?? t('strategy.trades.empty') }}
        rowClassName={(trade) =>
          freshIds.has(trade.id) ? 'qs-live-row qs-live-row-new' : 'qs-live-row'
        }
        onRow={(trade) =>
          ({
            'data-testid': 'strategy-trade-row',
            'data-order-id': trade.order_id,
          }) as HTMLAttributes<HTMLElement>
        }
        style={{ fontVariantNumeric: 'tabular-nums' }}
      />
    </Card>
  );
}
