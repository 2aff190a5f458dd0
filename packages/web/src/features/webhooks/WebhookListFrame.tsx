import { ReloadOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Flex,
  Pagination,
  Select,
  Skeleton,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import type { HTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useWebhookConfigs } from '../../api/webhooks';
import { PageHeading } from '../../shared/ui/PageHeading';
import { QueryErrorAlert, type QueryView } from '../../shared/ui/QueryState';
import { useIsMobile } from '../../shared/ui/use-is-mobile';
import { WebhookTabs } from './WebhookTabs';

// The frame the webhook Logs and Signals pages share: heading with refresh, tabs, filters, the
// error, a table (cards on a phone), the pager and the UTC+8 note. The filters, the page and an
// open row live in the address, so a list can be linked and reloaded.

export const WEBHOOK_LIST_PAGE_SIZE = 20;

/** A positive whole number from the address, else undefined. */
export function positiveInt(text: string | null): number | undefined {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

type ParamValues = Record<string, string | number | undefined>;

/** The list's address parameters: `setFilters` starts again at page 1, `setParams` does not. */
export function useListParams() {
  const [params, setSearchParams] = useSearchParams();
  const update = (next: ParamValues, isFilter: boolean) =>
    setSearchParams((current) => {
      const result = new URLSearchParams(current);
      for (const [name, value] of Object.entries(next)) {
        if (value === undefined || value === '') result.delete(name);
        else result.set(name, String(value));
      }
      if (isFilter) result.delete('page');
      return result;
    });
  return {
    params,
    page: positiveInt(params.get('page')) ?? 1,
    setFilters: (next: ParamValues) => update(next, true),
    setParams: (next: ParamValues) => update(next, false),
  };
}

interface Props<Row> {
  tab: 'logs' | 'signals';
  title: string;
  subtitle: string;
  query: QueryView<{ count: number; results: Row[] }> & { isPlaceholderData: boolean };
  page: number;
  onPage: (page: number) => void;
  filters: ReactNode;
  columns: TableColumnsType<Row>;
  /** The table's width before it scrolls sideways. */
  scrollX: number | 'max-content';
  onRow: (row: Row) => HTMLAttributes<HTMLElement>;
  /** The rows on a phone. */
  cards: (rows: Row[]) => ReactNode;
  empty: ReactNode;
  /** What stands beside the list (the signal trail drawer). */
  children?: ReactNode;
}

export function WebhookListFrame<Row extends { id: number }>({
  tab,
  title,
  subtitle,
  query,
  page,
  onPage,
  filters,
  columns,
  scrollX,
  onRow,
  cards,
  empty,
  children,
}: Props<Row>) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const rows = query.data?.results ?? [];
  const count = query.data?.count ?? 0;

  let list: ReactNode;
  if (isMobile) {
    list = query.isPending ? <Skeleton active /> : rows.length === 0 ? empty : cards(rows);
  } else {
    list = (
      <Table<Row>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={query.isPending || (Boolean(query.isFetching) && query.isPlaceholderData)}
        pagination={false}
        scroll={{ x: scrollX }}
        locale={{ emptyText: query.isPending ? ' ' : empty }}
        onRow={onRow}
      />
    );
  }

  return (
    <Flex vertical gap={16} style={{ width: '100%' }}>
      <PageHeading
        title={title}
        subtitle={subtitle}
        extra={
          <Button
            icon={<ReloadOutlined />}
            loading={query.isFetching}
            onClick={() => void query.refetch()}
          >
            {t('webhooks.refresh')}
          </Button>
        }
      />
      <WebhookTabs current={tab} />
      <Card styles={{ body: { padding: isMobile ? 12 : undefined } }}>
        <Flex vertical gap={12}>
          <Flex gap={8} wrap>
            {filters}
          </Flex>
          {query.isError && !query.data && (
            <QueryErrorAlert query={query} failedText={t('webhooks.loadFailed')} />
          )}
          {list}
          {count > WEBHOOK_LIST_PAGE_SIZE && (
            <Pagination
              align={isMobile ? 'center' : 'end'}
              simple={isMobile}
              current={page}
              pageSize={WEBHOOK_LIST_PAGE_SIZE}
              total={count}
              showSizeChanger={false}
              onChange={onPage}
            />
          )}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('webhooks.utc8')}
          </Typography.Text>
        </Flex>
      </Card>
      {children}
    </Flex>
  );
}

/** The "all configurations" filter both lists share (a configuration id, or none for all). */
export function ConfigFilter({
  value,
  onChange,
  testId,
}: {
  value: number | undefined;
  onChange: (config: number | undefined) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const configs = useWebhookConfigs();
  return (
    <Select
      allowClear
      value={value}
      onChange={(next?: number) => onChange(next)}
      placeholder={t('webhooks.signals.allConfigs')}
      options={(configs.data?.results ?? []).map((c) => ({ value: c.id, label: c.name }))}
      style={{ minWidth: 180, flex: isMobile ? '1 1 100%' : undefined }}
      data-testid={testId}
    />
  );
}
