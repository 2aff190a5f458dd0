import { ReloadOutlined } from '@ant-design/icons';
import {
  OPERATION_LOG_TYPES,
  type OperationLogEntry,
  type OperationLogType,
} from '@quantsquare/contracts';
import { Alert, Button, Flex, Select, Table, type TableColumnsType, Tag } from 'antd';
import type { HTMLAttributes } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOperationLogs } from '../../api/bots';
import { errorMessage } from '../../api/errors';
import { useIsMobile } from '../../app/use-is-mobile';
import { formatMoney } from '../dashboard/format';
import { Panel, Text } from '../dashboard/ui';
import { formatUtc8, logPnl } from './bot-format';
import { describeLogEntry } from './log-text';

const TYPE_COLORS: Record<OperationLogType, string> = {
  user_action: 'blue',
  bot_action: 'purple',
  trade: 'green',
  error: 'red',
  system: 'default',
};

const PAGE_SIZE = 20;

/** The operation log table (document 1 §2): every 5 s, manual refresh, type filter, paging. */
export function OperationLog() {
  const { t, i18n } = useTranslation();
  const isMobile = useIsMobile();
  const [type, setType] = useState<OperationLogType | undefined>(undefined);
  const [page, setPage] = useState(1);
  const logs = useOperationLogs({ type, page, pageSize: PAGE_SIZE });
  const locale = i18n.language;

  const columns: TableColumnsType<OperationLogEntry> = [
    {
      key: 'time',
      title: t('bots.logs.columns.time'),
      dataIndex: 'created_at',
      width: 170,
      render: (value: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatUtc8(value)}</span>,
    },
    {
      key: 'type',
      title: t('bots.logs.columns.type'),
      dataIndex: 'type',
      width: 110,
      render: (value: OperationLogType) => (
        <Tag color={TYPE_COLORS[value]} style={{ marginInlineEnd: 0 }}>
          {t(`bots.logs.types.${value}`)}
        </Tag>
      ),
    },
    {
      key: 'symbol',
      title: t('bots.logs.columns.symbol'),
      dataIndex: 'bot_symbol',
      width: 150,
      render: (value: string | null) => value ?? '—',
    },
    {
      key: 'message',
      title: t('bots.logs.columns.message'),
      render: (_: unknown, entry: OperationLogEntry) => (
        <span style={{ overflowWrap: 'anywhere' }} title={entry.message}>
          {describeLogEntry(t, entry)}
        </span>
      ),
    },
    {
      key: 'pnl',
      title: t('bots.logs.columns.pnl'),
      width: 110,
      align: 'right',
      render: (_: unknown, entry: OperationLogEntry) => {
        const pnl = logPnl(entry);
        if (pnl === null) return '—';
        return (
          <Text tone={pnl > 0 ? 'success' : pnl < 0 ? 'danger' : 'default'}>
            {formatMoney(pnl, locale)}
          </Text>
        );
      },
    },
  ];

  return (
    <Panel
      title={t('bots.logs.title')}
      data-testid="operation-log"
      extra={
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
            onChange={(value) => {
              setType(value === 'all' ? undefined : value);
              setPage(1);
            }}
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
            loading={logs.isFetching && !logs.isPending}
            onClick={() => void logs.refetch()}
            data-testid="operation-log-refresh"
          >
            {t('bots.logs.refresh')}
          </Button>
        </Flex>
      }
    >
      {logs.isError && !logs.data ? (
        <Alert
          type="error"
          showIcon
          title={errorMessage(t, logs.error, t('bots.logs.loadFailed'))}
        />
      ) : (
        <Table<OperationLogEntry>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={logs.data?.results ?? []}
          loading={logs.isPending}
          scroll={{ x: isMobile ? 640 : undefined }}
          locale={{ emptyText: t('bots.logs.empty') }}
          onRow={(entry) =>
            ({
              'data-testid': 'operation-log-row',
              'data-type': entry.type,
            }) as HTMLAttributes<HTMLElement>
          }
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: logs.data?.count ?? 0,
            showSizeChanger: false,
            size: 'small',
            showTotal: (count) => t('bots.logs.total', { count }),
            onChange: setPage,
          }}
        />
      )}
    </Panel>
  );
}
