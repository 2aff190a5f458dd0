import {
  ApiOutlined,
  DeleteOutlined,
  SafetyCertificateOutlined,
  WalletOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { ExchangeApi } from '@quantsquare/contracts';
import { Button, Card, Descriptions, Flex, Table, Tag, Tooltip, Typography } from 'antd';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { apiStatus } from '../../shared/format/account-format';
import { formatUtc8 } from '../../shared/format/bot-format';
import { AccountLabel } from './AccountLabel';
import { ExchangeErrorText } from './ExchangeErrorText';

export interface ApiRowActions {
  onTest: (api: ExchangeApi) => void;
  onValidate: (api: ExchangeApi) => void;
  onBalance: (api: ExchangeApi) => void;
  onDelete: (api: ExchangeApi) => void;
  busy: { id: number; action: 'test' | 'validate' } | null;
}

interface Props extends ApiRowActions {
  apis: ExchangeApi[];
  isMobile: boolean;
}

function NameCell({ api }: { api: ExchangeApi }) {
  return (
    <Flex gap={6} align="center" wrap>
      <AccountLabel account={api} testIdPrefix="api" />
    </Flex>
  );
}

const STATUS_COLORS = {
  normal: 'success',
  abnormal: 'error',
  disabled: 'default',
  unchecked: 'warning',
} as const;

/**
 * The status follows the last check (normal / abnormal, or disabled by the user). A failed
 * check says its kind in the reader's language, the exchange's words on demand.
 */
function StatusTag({ api }: { api: ExchangeApi }) {
  const { t } = useTranslation();
  const status = apiStatus(api);
  const checked = api.last_checked_at
    ? t('apis.lastChecked', { time: formatUtc8(api.last_checked_at) })
    : t('apis.neverChecked');
  const hasFailed = api.last_check_ok === false;
  return (
    <Flex vertical gap={2} style={{ minWidth: 0, maxWidth: 220, whiteSpace: 'normal' }}>
      <Tooltip title={checked}>
        <Tag
          color={STATUS_COLORS[status]}
          data-testid="api-status"
          data-status={status}
          style={{ width: 'fit-content' }}
        >
          {t(`apis.${status}`)}
        </Tag>
      </Tooltip>
      {hasFailed && (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="api-last-error">
          <WarningOutlined style={{ marginInlineEnd: 4 }} />
          <ExchangeErrorText kind={api.last_error_kind} detail={api.last_error} />
        </Typography.Text>
      )}
    </Flex>
  );
}

function RowActions({
  api,
  onTest,
  onValidate,
  onBalance,
  onDelete,
  busy,
  isCompact,
}: ApiRowActions & { api: ExchangeApi; isCompact: boolean }) {
  const { t } = useTranslation();
  const isBusy = (action: 'test' | 'validate') => busy?.id === api.id && busy.action === action;
  // Link-style buttons keep the table's action column narrow on desktop.
  const type = isCompact ? 'link' : 'default';
  const style = isCompact ? { paddingInline: 4 } : undefined;
  return (
    <Flex gap={isCompact ? 0 : 8} wrap>
      <Button
        size="small"
        type={type}
        style={style}
        icon={<ApiOutlined />}
        loading={isBusy('test')}
        onClick={() => onTest(api)}
        data-testid="api-test"
      >
        {t('apis.actions.test')}
      </Button>
      {!api.is_paper && (
        <Button
          size="small"
          type={type}
          style={style}
          icon={<SafetyCertificateOutlined />}
          loading={isBusy('validate')}
          onClick={() => onValidate(api)}
          data-testid="api-validate"
        >
          {t('apis.actions.validate')}
        </Button>
      )}
      <Button
        size="small"
        type={type}
        style={style}
        icon={<WalletOutlined />}
        onClick={() => onBalance(api)}
        data-testid="api-balance"
      >
        {t('apis.actions.balance')}
      </Button>
      <Button
        size="small"
        type={type}
        style={style}
        danger
        icon={<DeleteOutlined />}
        onClick={() => onDelete(api)}
        data-testid="api-delete"
      >
        {t('apis.actions.delete')}
      </Button>
    </Flex>
  );
}

/** The API list: a table on desktop, one card per API on mobile. */
export function ApiList({ apis, isMobile, ...actions }: Props) {
  const { t } = useTranslation();
  const yesNo = (value: boolean) =>
    value ? <Tag color="orange">{t('apis.testnet')}</Tag> : t('apis.no');

  if (isMobile) {
    return (
      <Flex vertical gap={12}>
        {apis.map((api) => (
          <Card key={api.id} size="small" data-testid="api-row" data-name={api.name}>
            <Flex justify="space-between" align="start" gap={8} style={{ marginBottom: 8 }}>
              <NameCell api={api} />
              <StatusTag api={api} />
            </Flex>
            <Descriptions
              size="small"
              column={2}
              style={{ marginBottom: 8 }}
              items={[
                {
                  key: 'exchange',
                  label: t('apis.columns.exchange'),
                  children: t(`apis.exchanges.${api.exchange}`),
                },
                {
                  key: 'type',
                  label: t('apis.columns.accountType'),
                  children: t(`apis.accountTypes.${api.account_type}`),
                },
                {
                  key: 'testnet',
                  label: t('apis.columns.testnet'),
                  children: yesNo(api.is_testnet),
                },
                {
                  key: 'mode',
                  label: t('apis.columns.positionMode'),
                  children: t(`apis.positionModes.${api.position_mode}`),
                },
                {
                  key: 'leverage',
                  label: t('apis.columns.leverage'),
                  children: t('apis.leverageValue', { leverage: api.default_leverage }),
                },
              ]}
            />
            <RowActions api={api} isCompact={false} {...actions} />
          </Card>
        ))}
      </Flex>
    );
  }

  return (
    <Table<ExchangeApi>
      size="middle"
      className="qs-nowrap-head"
      // A failed check's text must not squeeze the other columns into letters: scroll instead.
      scroll={{ x: 'max-content' }}
      rowKey="id"
      dataSource={apis}
      pagination={false}
      onRow={(api) =>
        ({ 'data-testid': 'api-row', 'data-name': api.name }) as HTMLAttributes<HTMLElement>
      }
      columns={[
        {
          title: t('apis.columns.name'),
          key: 'name',
          render: (_, api) => <NameCell api={api} />,
        },
        {
          title: t('apis.columns.exchange'),
          key: 'exchange',
          render: (_, api) => t(`apis.exchanges.${api.exchange}`),
        },
        {
          title: t('apis.columns.accountType'),
          key: 'account_type',
          render: (_, api) => t(`apis.accountTypes.${api.account_type}`),
        },
        {
          title: t('apis.columns.testnet'),
          key: 'is_testnet',
          render: (_, api) => yesNo(api.is_testnet),
        },
        {
          title: t('apis.columns.positionMode'),
          key: 'position_mode',
          render: (_, api) => t(`apis.positionModes.${api.position_mode}`),
        },
        {
          title: t('apis.columns.leverage'),
          key: 'default_leverage',
          render: (_, api) => t('apis.leverageValue', { leverage: api.default_leverage }),
        },
        {
          title: t('apis.columns.status'),
          key: 'is_active',
          width: 220,
          render: (_, api) => <StatusTag api={api} />,
        },
        {
          title: t('apis.columns.actions'),
          key: 'actions',
          // Narrow enough for the page; the buttons wrap onto a second line when needed.
          width: 240,
          render: (_, api) => <RowActions api={api} isCompact {...actions} />,
        },
      ]}
    />
  );
}
