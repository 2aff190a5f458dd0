import type { CopyRelation } from '@quantsquare/contracts';
import { Card, Empty, Flex, Skeleton, Table, type TableColumnsType, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCopyFollowers } from '../../api/copy-trading';
import { formatCoinAmount } from '../../shared/format/money';
import { formatDateUtc8 } from '../../shared/format/wallet-format';
import { QueryErrorAlert } from '../../shared/ui/QueryState';
import { copyFollowerName, copyStrategyName } from './CopyNames';
import { CopyBadges, CopyStatusTag, Figure } from './CopyParts';

/**
 * Followers (document 2 §4): totals of followers, running copies and fees earned, and who copies
 * which account; a row opens the follower's profile.
 */
export function FollowersPanel() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const followers = useCopyFollowers();
  const locale = i18n.language;

  if (followers.isPending) {
    return (
      <Card size="small">
        <Skeleton active paragraph={{ rows: 4 }} />
      </Card>
    );
  }
  if (followers.isError && !followers.data) {
    return <QueryErrorAlert query={followers} failedText={t('copy.page.loadFailed')} textOnly />;
  }
  const data = followers.data;
  const totals = data?.totals;
  const columns: TableColumnsType<CopyRelation> = [
    {
      key: 'email',
      title: t('copy.page.followerEmail'),
      render: (_, r) => (
        <Flex vertical gap={0}>
          <span data-testid="copy-follower-name">{copyFollowerName(r)}</span>
          {r.follower_nickname && (r.follower_email || r.follower_phone) && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.follower_email || r.follower_phone}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      key: 'leader',
      title: t('copy.page.leaderAccount'),
      render: (_, r) => (
        <Flex gap={4} wrap align="center">
          <span data-testid="copy-strategy-name">{copyStrategyName(r, t)}</span>
          <CopyBadges relation={r} />
        </Flex>
      ),
    },
    {
      key: 'amount',
      title: t('copy.page.copyAmount'),
      align: 'right',
      render: (_, r) => `${formatCoinAmount(r.copy_amount, locale)} USDT`,
    },
    {
      key: 'fee',
      title: t('copy.page.feePaid'),
      align: 'right',
      render: (_, r) => (
        <span data-testid="copy-follower-fee">{formatCoinAmount(r.fee_paid, locale)}</span>
      ),
    },
    {
      key: 'status',
      title: t('copy.page.status'),
      render: (_, r) => <CopyStatusTag status={r.status} />,
    },
    {
      key: 'created',
      title: t('copy.page.createdAt'),
      render: (_, r) => formatDateUtc8(r.created_at),
    },
  ];
  return (
    <Flex vertical gap={16}>
      <Card size="small">
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fit, minmax(110px, 1fr))',
            gap: 12,
          }}
          data-testid="copy-followers-totals"
        >
          <Figure label={t('copy.page.totals.followers')}>
            <span style={{ fontSize: 20 }} data-testid="copy-totals-followers">
              {totals?.followers ?? 0}
            </span>
          </Figure>
          <Figure label={t('copy.page.totals.active')}>
            <span style={{ fontSize: 20 }} data-testid="copy-totals-active">
              {totals?.active ?? 0}
            </span>
          </Figure>
          <Figure label={t('copy.page.totals.fees')}>
            <span style={{ fontSize: 20 }} data-testid="copy-totals-fees">
              {formatCoinAmount(totals?.fees_earned ?? '0', locale)}
            </span>
          </Figure>
        </div>
      </Card>
      {(data?.results.length ?? 0) === 0 ? (
        <Empty description={t('copy.page.emptyFollowers')} data-testid="copy-followers-empty" />
      ) : (
        <Table<CopyRelation>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={data?.results ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          onRow={(r) => ({
            onClick: () => navigate(`/user/${r.follower_user}`),
            style: { cursor: 'pointer' },
            'data-testid': 'copy-follower-row',
          })}
        />
      )}
    </Flex>
  );
}
