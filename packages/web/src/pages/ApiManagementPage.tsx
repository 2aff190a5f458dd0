import '../i18n/accounts-texts';
import { PlusOutlined } from '@ant-design/icons';
import type { ExchangeApi } from '@quantsquare/contracts';
import { Button, Card, Empty, Flex, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useExchangeApis } from '../api/accounts';
import { AddApiModal } from '../features/accounts/AddApiModal';
import { ApiBalanceModal } from '../features/accounts/ApiBalanceModal';
import { ApiList } from '../features/accounts/ApiList';
import { ApiValidateModal } from '../features/accounts/ApiValidateModal';
import { useApiActions } from '../features/accounts/use-api-actions';
import { QueryErrorAlert } from '../shared/ui/QueryState';
import { useIsMobile } from '../shared/ui/use-is-mobile';

/** /my/api-management: the user's exchange APIs (document 1 §2 "API management"). */
export function ApiManagementPage() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const apis = useExchangeApis();
  const actions = useApiActions();
  const [isAddOpen, setAddOpen] = useState(false);
  const [balanceOf, setBalanceOf] = useState<ExchangeApi | null>(null);
  const list = apis.data?.results ?? [];

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <div style={{ minWidth: 0 }}>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('apis.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('apis.subtitle')}</Typography.Text>
        </div>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setAddOpen(true)}
          data-testid="api-add"
        >
          {t('apis.add')}
        </Button>
      </Flex>
      {apis.isPending && (
        <Card>
          <Skeleton active />
        </Card>
      )}
      {apis.isError && <QueryErrorAlert query={apis} failedText={t('apis.loadFailed')} />}
      {apis.isSuccess && list.length === 0 && (
        <Card>
          <Empty description={t('apis.empty')} data-testid="api-empty">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setAddOpen(true)}
              data-testid="api-add-first"
            >
              {t('apis.addFirst')}
            </Button>
          </Empty>
        </Card>
      )}
      {list.length > 0 && (
        <Card
          styles={{ body: { padding: isMobile ? 0 : 8 } }}
          variant={isMobile ? 'borderless' : 'outlined'}
          style={isMobile ? { background: 'transparent' } : undefined}
        >
          <ApiList
            apis={list}
            isMobile={isMobile}
            onTest={actions.test}
            onValidate={actions.validate}
            onBalance={setBalanceOf}
            onDelete={actions.confirmDelete}
            busy={actions.busy}
          />
        </Card>
      )}
      <AddApiModal open={isAddOpen} onClose={() => setAddOpen(false)} />
      <ApiBalanceModal api={balanceOf} onClose={() => setBalanceOf(null)} />
      <ApiValidateModal
        api={actions.validation?.api ?? null}
        result={actions.validation?.result ?? null}
        onClose={actions.closeValidation}
      />
    </Flex>
  );
}
