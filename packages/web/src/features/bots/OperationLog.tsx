import { ReloadOutlined } from '@ant-design/icons';
import {
  OPERATION_LOG_TYPES,
  type OperationLogEntry,
  type OperationLogType,
} from '@quantsquare/contracts';
import { Button, Flex, Select, theme } from 'antd';
import type { TFunction } from 'i18next';
import type { HTMLAttributes, RefObject } from 'react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useOperationLogs } from '../../api/bots';
import { formatUtc8, logPnl } from '../../shared/format/bot-format';
import { formatMoney } from '../../shared/format/money';
import { type LightColumn, LightTable } from '../../shared/ui/LightTable';
import { Pager } from '../../shared/ui/Pager';
import { QueryErrorAlert } from '../../shared/ui/QueryState';
import { Spinner } from '../../shared/ui/Spinner';
import { Note, Panel, Pill, type PresetColor, Text } from '../../shared/ui/ui';
import { useIsMobile } from '../../shared/ui/use-is-mobile';
import { describeLogEntry } from './log-text';

const TYPE_COLORS: Record<OperationLogType, PresetColor | 'secondary'> = {
  user_action: 'blue',
  bot_action: 'purple',
  trade: 'green',
  error: 'red',
  system: 'secondary',
};

function TypePill({ type }: { type: OperationLogType }) {
  const { t } = useTranslation();
  return <Pill color={TYPE_COLORS[type]}>{t(`bots.logs.types.${type}`)}</Pill>;
}

const PAGE_SIZE = 20;

function PnlText({ entry, locale }: { entry: OperationLogEntry; locale: string }) {
  const pnl = logPnl(entry);
  if (pnl === null) return null;
  return (
    <Text
      tone={pnl > 0 ? 'success' : pnl < 0 ? 'danger' : 'default'}
      data-testid="operation-log-pnl"
    >
      {formatMoney(pnl, locale)}
    </Text>
  );
}

/**
 * The log on a phone: one stacked card per entry (time and type, symbol and P&L, the message on
 * its own lines), so nothing is cut or scrolled sideways at 375 px.
 */
function MobileLogList({
  entries,
  locale,
  emptyText,
}: {
  entries: readonly OperationLogEntry[];
  locale: string;
  emptyText: string;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (entries.length === 0) return <Note>{emptyText}</Note>;
  return (
    <Flex vertical gap={8} data-testid="operation-log-cards">
      {entries.map((entry) => (
        <article
          key={entry.id}
          data-testid="operation-log-row"
          data-type={entry.type}
          style={{
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadius,
            padding: '8px 10px',
            minWidth: 0,
          }}
        >
          <Flex justify="space-between" align="center" gap={8}>
            <Text tone="secondary" size={12} style={{ whiteSpace: 'nowrap' }}>
              {formatUtc8(entry.created_at)}
            </Text>
            <TypePill type={entry.type} />
          </Flex>
          {(entry.bot_symbol || logPnl(entry) !== null) && (
            <Flex justify="space-between" align="center" gap={8} style={{ marginTop: 4 }}>
              <Text strong style={{ overflowWrap: 'anywhere' }}>
                {entry.bot_symbol ?? ''}
              </Text>
              <PnlText entry={entry} locale={locale} />
            </Flex>
          )}
          <div style={{ marginTop: 4, overflowWrap: 'anywhere' }} title={entry.message}>
            {describeLogEntry(t, entry, locale)}
          </div>
        </article>
      ))}
    </Flex>
  );
}

/** How long the anchor follows the layout above it as the dashboard's panels load. */
const SETTLE_MS = 5000;

/**
 * Scrolls the anchor into view, and again whenever the page above it grows while the
 * dashboard's panels load, until the user scrolls themselves or the page settles. Returns the
 * cleanup.
 */
function keepInView(anchorRef: RefObject<HTMLDivElement | null>): () => void {
  const scroll = () => anchorRef.current?.scrollIntoView({ block: 'start' });
  scroll();
  const observer = new ResizeObserver(scroll);
  observer.observe(document.body);
  const stop = () => {
    observer.disconnect();
    window.clearTimeout(timer);
    for (const type of USER_SCROLLS) window.removeEventListener(type, stop);
  };
  const timer = window.setTimeout(stop, SETTLE_MS);
  for (const type of USER_SCROLLS) window.addEventListener(type, stop, { passive: true });
  return stop;
}

const USER_SCROLLS = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;

/** The dashboard anchor of the operation log (the mobile menu's "API operation log"). */
export const OPERATION_LOG_ANCHOR = 'operation-log';

/** The desktop table's columns. */
function logColumns(t: TFunction, locale: string): LightColumn<OperationLogEntry>[] {
  return [
    {
      key: 'time',
      title: t('bots.logs.columns.time'),
      width: 170,
      render: (entry) => (
        <span style={{ whiteSpace: 'nowrap' }}>{formatUtc8(entry.created_at)}</span>
      ),
    },
    {
      key: 'type',
      title: t('bots.logs.columns.type'),
      width: 110,
      render: (entry) => <TypePill type={entry.type} />,
    },
    {
      key: 'symbol',
      title: t('bots.logs.columns.symbol'),
      width: 150,
      render: (entry) => (
        <span style={{ overflowWrap: 'anywhere' }}>{entry.bot_symbol ?? '—'}</span>
      ),
    },
    {
      key: 'message',
      title: t('bots.logs.columns.message'),
      render: (entry) => (
        <span style={{ overflowWrap: 'anywhere' }} title={entry.message}>
          {describeLogEntry(t, entry, locale)}
        </span>
      ),
    },
    {
      key: 'pnl',
      title: t('bots.logs.columns.pnl'),
      width: 110,
      align: 'right',
      render: (entry) => (logPnl(entry) === null ? '—' : <PnlText entry={entry} locale={locale} />),
    },
  ];
}

/** The type filter and the refresh button. */
function LogControls({
  type,
  onType,
  isRefreshing,
  onRefresh,
}: {
  type: OperationLogType | undefined;
  onType: (type: OperationLogType | undefined) => void;
  isRefreshing: boolean;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Flex wrap gap={8} align="center">
      <Text tone="secondary" size={12}>
        {t('bots.logs.autoRefresh')}
      </Text>
      <Select<OperationLogType | 'all'>
        size="small"
        aria-label={t('bots.logs.typeFilter')}
        data-testid="operation-log-type"
        value={type ?? 'all'}
        style={{ width: 130 }}
        onChange={(value) => onType(value === 'all' ? undefined : value)}
        options={[
          { value: 'all', label: t('bots.logs.allTypes') },
          ...OPERATION_LOG_TYPES.map((value) => ({
            value,
            label: t(`bots.logs.types.${value}`),
          })),
        ]}
      />
      <Button
        size="small"
        icon={<ReloadOutlined />}
        loading={isRefreshing}
        onClick={onRefresh}
        data-testid="operation-log-refresh"
      >
        {t('bots.logs.refresh')}
      </Button>
    </Flex>
  );
}

/**
 * The operation log (document 1 §2): every 5 s, manual refresh, type filter, paging; a table on
 * desktop, stacked cards on a phone.
 */
export function OperationLog() {
  const { t, i18n } = useTranslation();
  const { hash } = useLocation();
  const anchorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (hash !== `#${OPERATION_LOG_ANCHOR}`) return;
    return keepInView(anchorRef);
  }, [hash]);
  const isMobile = useIsMobile();
  const [type, setType] = useState<OperationLogType | undefined>(undefined);
  const [page, setPage] = useState(1);
  const logs = useOperationLogs({ type, page, pageSize: PAGE_SIZE });
  const locale = i18n.language;

  const columns = logColumns(t, locale);

  return (
    <div id={OPERATION_LOG_ANCHOR} ref={anchorRef} style={{ scrollMarginTop: 72 }}>
      <Panel
        title={t('bots.logs.title')}
        data-testid="operation-log"
        extra={
          <LogControls
            type={type}
            onType={(value) => {
              setType(value);
              setPage(1);
            }}
            isRefreshing={logs.isFetching && !logs.isPending}
            onRefresh={() => void logs.refetch()}
          />
        }
      >
        {logs.isError && !logs.data ? (
          <QueryErrorAlert query={logs} failedText={t('bots.logs.loadFailed')} hideRetry />
        ) : (
          <>
            {isMobile ? (
              logs.isPending ? (
                <Flex justify="center" style={{ padding: 24 }}>
                  <Spinner />
                </Flex>
              ) : (
                <MobileLogList
                  entries={logs.data?.results ?? []}
                  locale={locale}
                  emptyText={t('bots.logs.empty')}
                />
              )
            ) : (
              <LightTable<OperationLogEntry>
                columns={columns}
                rows={logs.data?.results ?? []}
                rowKey={(entry) => entry.id}
                isLoading={logs.isPending}
                emptyText={t('bots.logs.empty')}
                rowProps={(entry) =>
                  ({
                    'data-testid': 'operation-log-row',
                    'data-type': entry.type,
                  }) as HTMLAttributes<HTMLTableRowElement>
                }
              />
            )}
            <Pager
              page={page}
              pageSize={PAGE_SIZE}
              total={logs.data?.count ?? 0}
              totalText={
                isMobile ? undefined : t('bots.logs.total', { count: logs.data?.count ?? 0 })
              }
              onChange={setPage}
              data-testid="operation-log-pager"
            />
          </>
        )}
      </Panel>
    </div>
  );
}
