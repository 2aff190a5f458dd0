import type { CopyRelation } from '@quantsquare/contracts';
import { Button, Card, Empty, Flex, Skeleton, Tag, Typography } from 'antd';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useCopyFollowing } from '../../api/copy-trading';
import { formatCoinAmount } from '../../shared/format/money';
import { formatDateUtc8 } from '../../shared/format/wallet-format';
import { QueryErrorAlert } from '../../shared/ui/QueryState';
import { CopyLeaderTitle, copyAccountName } from './CopyNames';
import {
  CopyActionButtons,
  CopyBadges,
  CopyStatusTag,
  Figure,
  PercentText,
  PnlText,
} from './CopyParts';
import { EditCopyModal } from './EditCopyModal';
import { useCopyActions } from './use-copy-actions';

function FollowingCard({
  relation,
  busy,
  onAction,
}: {
  relation: CopyRelation;
  busy: boolean;
  onAction: ReturnType<typeof useCopyActions>['run'];
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const locale = i18n.language;
  const open = () => navigate(`/copy-trading/${relation.id}`);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && event.target === event.currentTarget) open();
  };
  const maxLoss = relation.max_loss === null ? null : Number(relation.max_loss);
  return (
    <Card
      size="small"
      hoverable
      onClick={open}
      onKeyDown={onKeyDown}
      tabIndex={0}
      role="link"
      data-testid="copy-following-item"
      data-id={relation.id}
      data-status={relation.status}
    >
      <Flex vertical gap={12}>
        <Flex justify="space-between" align="flex-start" gap={8} wrap>
          <Flex vertical gap={4} style={{ minWidth: 0 }}>
            <CopyLeaderTitle
              relation={relation}
              extra={
                <>
                  <Tag style={{ marginInlineEnd: 0 }}>{relation.leader_exchange.toUpperCase()}</Tag>
                  <CopyBadges relation={relation} />
                </>
              }
            />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('copy.page.followerAccount')}: {copyAccountName(relation.follower_account_name, t)}{' '}
              · {t('copy.page.created', { date: formatDateUtc8(relation.created_at) })}
            </Typography.Text>
          </Flex>
          <CopyStatusTag status={relation.status} />
        </Flex>
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fit, minmax(100px, 1fr))',
            gap: 8,
          }}
        >
          <Figure label={t('copy.page.copyAmount')}>
            <span data-testid="copy-amount-value">
              {formatCoinAmount(relation.copy_amount, locale)}
            </span>{' '}
            USDT
          </Figure>
          <Figure label={t('copy.page.maxLoss')}>
            <span data-testid="copy-max-loss-value">
              {maxLoss === null || maxLoss === 0
                ? t('copy.page.noLimit')
                : `${formatCoinAmount(relation.max_loss, locale)} USDT`}
            </span>
          </Figure>
          <Figure label={t('copy.page.pnl')}>
            <PnlText value={relation.total_profit_loss} />
          </Figure>
          <Figure label={t('copy.page.profitPercent')}>
            <PercentText value={relation.profit_percent} />
          </Figure>
          <Figure label={t('copy.page.trades')}>{relation.total_copied_trades}</Figure>
        </div>
        {relation.status === 'stopped' && relation.stop_reason && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`copy.stopReasons.${relation.stop_reason}`)}
          </Typography.Text>
        )}
        {relation.status === 'paused' && relation.pause_reason && (
          <Typography.Text type="warning" style={{ fontSize: 12 }}>
            {t(`copy.pauseReasons.${relation.pause_reason}`)}
          </Typography.Text>
        )}
        <CopyActionButtons relation={relation} busy={busy} onAction={onAction} />
      </Flex>
    </Card>
  );
}

/** Mine: the strategies this user copies (document 2 §4). */
export function FollowingList() {
  const { t } = useTranslation();
  const following = useCopyFollowing();
  const actions = useCopyActions();

  if (following.isPending) {
    return (
      <Flex vertical gap={12}>
        {[0, 1].map((i) => (
          <Card key={i} size="small">
            <Skeleton active paragraph={{ rows: 2 }} />
          </Card>
        ))}
      </Flex>
    );
  }
  // Document 2 §8: a failed copy list is only logged; the page says it could not load.
  if (following.isError && !following.data) {
    return <QueryErrorAlert query={following} failedText={t('copy.page.loadFailed')} textOnly />;
  }
  const list = following.data?.results ?? [];
  return (
    <>
      {list.length === 0 ? (
        <Empty description={t('copy.page.emptyMine')} data-testid="copy-following-empty">
          <Link to="/strategy-square">
            <Button type="primary">{t('copy.page.browse')}</Button>
          </Link>
        </Empty>
      ) : (
        <Flex vertical gap={12} data-testid="copy-following-list">
          {list.map((relation) => (
            <FollowingCard
              key={relation.id}
              relation={relation}
              busy={actions.busyId === relation.id}
              onAction={actions.run}
            />
          ))}
        </Flex>
      )}
      <EditCopyModal relation={actions.editing} onClose={actions.closeEdit} />
    </>
  );
}
