import { CheckOutlined, CopyOutlined, GiftOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Referral } from '@quantsquare/contracts';
import {
  Alert,
  App,
  Button,
  Empty,
  Flex,
  Pagination,
  Skeleton,
  Tag,
  Typography,
  theme,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGenerateInvitation, useInvitationStats, useReferrals } from '../../api/wallet';
import { walletErrorMessage } from '../../shared/errors/wallet-errors';
import { formatCoinAmount } from '../../shared/format/money';
import { formatDateUtc8 } from '../../shared/format/wallet-format';
import { QueryErrorAlert } from '../../shared/ui/QueryState';
import { useCopy } from '../../shared/ui/use-copy';

const REFERRALS_PAGE_SIZE = 10;

function Count({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { token } = theme.useToken();
  return (
    <div
      style={{
        padding: '10px 12px',
        borderRadius: token.borderRadiusLG,
        background: token.colorFillQuaternary,
        minWidth: 0,
      }}
    >
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      <div
        style={{ fontSize: 20, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
        data-testid={testId}
      >
        {value}
      </div>
    </div>
  );
}

function ReferralRow({ referral, isFirst }: { referral: Referral; isFirst: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex
      justify="space-between"
      align="center"
      gap={12}
      data-testid="referral-row"
      data-vip={referral.is_vip}
      style={{
        padding: '8px 0',
        borderTop: isFirst ? undefined : `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      <Flex vertical style={{ minWidth: 0 }}>
        <Typography.Text ellipsis>{referral.email ?? referral.phone ?? '—'}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('invite.referralDate')} {formatDateUtc8(referral.created_at)}
        </Typography.Text>
      </Flex>
      <Tag
        color={referral.is_vip ? 'gold' : 'default'}
        style={{ marginInlineEnd: 0 }}
        data-testid="referral-tag"
      >
        {referral.is_vip ? t('invite.vipTag') : t('invite.normalTag')}
      </Tag>
    </Flex>
  );
}

/** The code, with copy (its clipboard-failure text) and generate (confirmed when it replaces one). */
function InvitationCode({ code }: { code: string }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { copied, copy } = useCopy();
  const generate = useGenerateInvitation();

  const copyCode = async () => {
    if (await copy(code)) void message.success(t('invite.codeCopied'));
    else void message.error({ content: t('invite.copyFailed', { code }), duration: 8 });
  };

  const runGenerate = () =>
    generate
      .mutateAsync()
      .then(() => void message.success(t('invite.generated')))
      .catch(
        (error: unknown) =>
          void message.error(walletErrorMessage(t, error, t('invite.generateFailed'))),
      );

  const askGenerate = () => {
    if (!code) {
      void runGenerate();
      return;
    }
    modal.confirm({
      title: t('invite.regenerateConfirmTitle'),
      content: t('invite.regenerateConfirm'),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'invite-generate-confirm' },
      onOk: runGenerate,
    });
  };

  return (
    <Flex vertical gap={6}>
      <Typography.Text type="secondary">{t('invite.code')}</Typography.Text>
      <Flex align="center" gap={8} wrap>
        {code ? (
          <Typography.Text
            strong
            style={{ fontSize: 22, letterSpacing: 2, fontFamily: 'monospace' }}
            data-testid="invite-code"
          >
            {code}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary" data-testid="invite-no-code">
            {t('invite.noCode')}
          </Typography.Text>
        )}
        {code && (
          <Button
            icon={copied ? <CheckOutlined /> : <CopyOutlined />}
            onClick={() => void copyCode()}
            data-testid="invite-copy"
          >
            {copied ? t('wallet.copied') : t('invite.copyCode')}
          </Button>
        )}
        <Button
          icon={<ReloadOutlined />}
          loading={generate.isPending}
          onClick={askGenerate}
          data-testid="invite-generate"
        >
          {code ? t('invite.regenerate') : t('invite.generate')}
        </Button>
      </Flex>
    </Flex>
  );
}

/** How many the user invited, how many bought VIP, and the rewards. */
function InvitationCounts() {
  const { t, i18n } = useTranslation();
  const stats = useInvitationStats();
  const locale = i18n.language;
  const data = stats.data;
  return (
    <>
      {stats.isPending && <Skeleton active paragraph={{ rows: 1 }} />}
      {stats.isError && !data && (
        <QueryErrorAlert
          query={stats}
          failedText={t('wallet.loadFailed')}
          describe={walletErrorMessage}
        />
      )}
      {data && (
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 130px), 1fr))',
            gap: 8,
          }}
        >
          <Count
            label={t('invite.totalReferrals')}
            value={String(data.total_referrals)}
            testId="invite-total-referrals"
          />
          <Count
            label={t('invite.vipCount')}
            value={String(data.vip_count)}
            testId="invite-vip-count"
          />
          <Count
            label={t('invite.totalRewards')}
            value={t('wallet.coins', { amount: formatCoinAmount(data.total_rewards, locale) })}
            testId="invite-total-rewards"
          />
          <Count
            label={t('invite.pendingBonus')}
            value={t('wallet.coins', { amount: formatCoinAmount(data.pending_bonus, locale) })}
            testId="invite-pending-bonus"
          />
        </div>
      )}
    </>
  );
}

/** The users invited, a page at a time, with their VIP or normal tag. */
function ReferralList() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const referrals = useReferrals(page, REFERRALS_PAGE_SIZE);
  return (
    <>
      <Typography.Text strong>{t('invite.referrals')}</Typography.Text>
      {referrals.isPending && <Skeleton active paragraph={{ rows: 2 }} />}
      {referrals.isError && !referrals.data && (
        <QueryErrorAlert
          query={referrals}
          failedText={t('wallet.loadFailed')}
          describe={walletErrorMessage}
          hideRetry
        />
      )}
      {referrals.data && referrals.data.results.length === 0 && (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('invite.noReferrals')}
          data-testid="referrals-empty"
        />
      )}
      {referrals.data && referrals.data.results.length > 0 && (
        <div data-testid="referrals">
          {referrals.data.results.map((referral, index) => (
            <ReferralRow key={referral.id} referral={referral} isFirst={index === 0} />
          ))}
          {referrals.data.count > REFERRALS_PAGE_SIZE && (
            <Pagination
              size="small"
              current={page}
              pageSize={REFERRALS_PAGE_SIZE}
              total={referrals.data.count}
              onChange={setPage}
              showSizeChanger={false}
              style={{ marginTop: 12, justifyContent: 'flex-end' }}
            />
          )}
        </div>
      )}
    </>
  );
}

/**
 * The invitation system (§2, §8, §9): the code with copy (its clipboard-failure text) and
 * generate, the reward rule, the counts and the referral list with VIP/normal tags.
 */
export function InvitationCard({ code }: { code: string }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={16}>
      <InvitationCode code={code} />
      <Alert type="info" showIcon icon={<GiftOutlined />} title={t('invite.reward')} />
      <InvitationCounts />
      <ReferralList />
    </Flex>
  );
}
