import { Card, Flex, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../api/auth';
import { useOwnProfile } from '../../api/profile';
import { walletErrorMessage } from '../../shared/errors/wallet-errors';
import { PageHeading } from '../../shared/ui/PageHeading';
import { QueryErrorAlert } from '../../shared/ui/QueryState';
import { CoinBalanceCard } from './CoinBalanceCard';
import { InvitationCard } from './InvitationCard';
import { ProfileCard } from './ProfileCard';
import { VipCard } from './VipCard';

/**
 * Profile settings (document 2 §2). /my/settings is the profile (avatar, nickname, bio, stats);
 * /my/profile (the sidebar's VIP invitation) is VIP, invitations and the coin balance.
 */
export function ProfileSettings({ lead }: { lead: 'profile' | 'vipInvitation' }) {
  const { t } = useTranslation();
  const user = useProfile();
  const own = useOwnProfile();

  const failed = user.isError ? user : own.isError ? own : null;
  const heading =
    lead === 'profile' ? (
      <PageHeading title={t('settings.title')} subtitle={t('settings.profileSubtitle')} />
    ) : (
      <PageHeading title={t('wallet.nav.vipInvitation')} subtitle={t('settings.vipSubtitle')} />
    );

  if (failed && !(user.data && own.data)) {
    return (
      <Flex vertical gap={16}>
        {heading}
        <QueryErrorAlert
          query={failed}
          failedText={t('wallet.loadFailed')}
          describe={walletErrorMessage}
        />
      </Flex>
    );
  }
  if (!user.data || !own.data) {
    return (
      <Flex vertical gap={16}>
        {heading}
        <Card>
          <Skeleton active avatar />
        </Card>
      </Flex>
    );
  }

  const profileCard = (
    <Card title={t('settings.info')} key="profile" data-testid="profile-card">
      <ProfileCard own={own.data} user={user.data} />
    </Card>
  );
  const vipCard = (
    <Card key="vip">
      <VipCard balance={user.data.platform_balance} />
    </Card>
  );
  const balanceCard = (
    <Card key="balance">
      <CoinBalanceCard />
    </Card>
  );
  const invitationCard = (
    <Card title={t('invite.title')} key="invite" data-testid="invitation-card">
      <InvitationCard code={user.data.invitation_code} />
    </Card>
  );
  // Two screens, two contents: /my/settings edits the profile; /my/profile holds VIP,
  // invitations and the coin balance.
  const columns: ReactNode[][] =
    lead === 'profile' ? [[profileCard]] : [[vipCard, invitationCard], [balanceCard]];

  return (
    <Flex vertical gap={16}>
      {heading}
      <div
        style={{
          display: 'grid',
          gridTemplateColumns:
            columns.length === 1
              ? 'minmax(0, 720px)'
              : 'repeat(auto-fit, minmax(min(100%, 380px), 1fr))',
          gap: 16,
          alignItems: 'start',
        }}
      >
        {columns.map((cards, index) => (
          // The two columns are fixed; their order never changes while mounted.
          <Flex vertical gap={16} key={index === 0 ? 'left' : 'right'} style={{ minWidth: 0 }}>
            {cards}
          </Flex>
        ))}
      </div>
    </Flex>
  );
}
