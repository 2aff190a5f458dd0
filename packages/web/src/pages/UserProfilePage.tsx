import type { PublicProfile } from '@quantsquare/contracts';
import '../i18n/square-texts';
import '../features/square/square.css';
import { CalendarOutlined } from '@ant-design/icons';
import { App, Card, Empty, Flex, Skeleton, Typography } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useProfile } from '../api/auth';
import { usePublicProfile, useToggleFollow, useUserStrategies } from '../api/square';
import { useIsLoggedIn } from '../api/tokens';
import { CopyModalHost, type CopyTarget } from '../features/copy-trading/CopyModalHost';
import { ownerName, StrategyCardView } from '../features/square/StrategyCardView';
import { FollowButton } from '../features/square/StrategyHeader';
import { squareErrorText } from '../shared/errors/square-errors';
import { abbreviateNumber } from '../shared/format/money';
import { parseRouteId } from '../shared/format/square-format';
import { UserAvatar } from '../shared/ui/UserAvatar';

function Count({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div style={{ textAlign: 'center', minWidth: 64 }}>
      <div style={{ fontSize: 20, fontWeight: 600 }} data-testid={testId}>
        {value}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card size="small" title={title} data-testid="profile-strategies">
      {children}
    </Card>
  );
}

/** Avatar, name (or Anonymous), bio (or No bio yet) and the month the trader joined. */
function ProfileIdentity({ profile: data }: { profile: PublicProfile }) {
  const { t, i18n } = useTranslation();
  const name = ownerName(data.nickname, t('square.anonymous'));
  const joined = new Date(data.created_at).toLocaleDateString(i18n.language, {
    year: 'numeric',
    month: 'long',
  });
  return (
    <Flex gap={16} align="center" style={{ minWidth: 0, flex: '1 1 260px' }}>
      <UserAvatar url={data.avatar_url} name={name} size={72} />
      <div style={{ minWidth: 0 }}>
        <Typography.Title
          level={3}
          style={{ margin: 0, overflowWrap: 'anywhere' }}
          data-testid="profile-name"
        >
          {name}
        </Typography.Title>
        <Typography.Paragraph
          type={data.bio ? undefined : 'secondary'}
          style={{ margin: '4px 0', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          data-testid="profile-bio"
        >
          {data.bio || t('userProfile.noBio')}
        </Typography.Paragraph>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          <CalendarOutlined /> {t('userProfile.joined', { date: joined })}
        </Typography.Text>
      </div>
    </Flex>
  );
}

/**
 * /user/{userId}: a trader's public profile (document 2 §2): avatar, nickname (or Anonymous),
 * bio (or No bio yet), followers, following, joined month and year, follow (not on one's own
 * profile) and the public strategies. A profile that cannot be loaded goes to the square.
 */
export function UserProfilePage() {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const isLoggedIn = useIsLoggedIn();
  const viewer = useProfile();
  const userId = parseRouteId(useParams().userId);
  const profile = usePublicProfile(userId);
  const strategies = useUserStrategies(userId);
  const follow = useToggleFollow();
  const locale = i18n.language;
  const [copyTarget, setCopyTarget] = useState<CopyTarget | null>(null);

  const failed = userId === null || (profile.isError && !profile.data);
  useEffect(() => {
    if (!failed) return;
    const notice = squareErrorText(t, profile.error, t('userProfile.loadFailed'));
    navigate('/strategy-square', { replace: true, state: { notice } });
  }, [failed, profile.error, navigate, t]);

  const data = profile.data;
  if (!data) {
    return (
      <Card>
        <Skeleton avatar active paragraph={{ rows: 3 }} />
      </Card>
    );
  }

  const toggleFollow = () => {
    if (!isLoggedIn) {
      navigate('/login');
      return;
    }
    follow.mutate(
      { userId: data.user_id, follow: !data.is_following },
      {
        onError: (error) =>
          void modal.error({ title: squareErrorText(t, error, t('strategy.followFailed')) }),
      },
    );
  };
  const list = strategies.data?.results ?? [];

  return (
    <Flex vertical gap={16} data-testid="profile-page">
      <Card>
        <Flex gap={20} align="center" wrap justify="space-between">
          <ProfileIdentity profile={data} />
          <Flex gap={16} align="center" wrap>
            <Count
              label={t('userProfile.followers')}
              value={abbreviateNumber(data.followers_count, locale, 0)}
              testId="profile-followers"
            />
            <Count
              label={t('userProfile.following')}
              value={abbreviateNumber(data.following_count, locale, 0)}
              testId="profile-following"
            />
            {!data.is_self && !(viewer.data && viewer.data.id === data.user_id) && (
              <FollowButton
                isFollowing={data.is_following}
                isPending={follow.isPending}
                onToggle={toggleFollow}
              />
            )}
          </Flex>
        </Flex>
      </Card>
      <Section title={t('userProfile.strategies')}>
        {strategies.isPending ? (
          <Skeleton active />
        ) : list.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              strategies.isError
                ? squareErrorText(t, strategies.error, t('userProfile.noStrategies'))
                : t('userProfile.noStrategies')
            }
            data-testid="profile-strategies-empty"
          />
        ) : (
          <div
            style={{
              display: 'grid',
              gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 280px), 1fr))',
              gap: 16,
            }}
          >
            {list.map((strategy) => (
              <StrategyCardView
                key={strategy.id}
                strategy={strategy}
                viewerId={viewer.data?.id ?? null}
                onCopy={(s) => setCopyTarget({ id: s.id, name: s.name, exchange: s.exchange })}
              />
            ))}
          </div>
        )}
      </Section>
      <CopyModalHost target={copyTarget} onClose={() => setCopyTarget(null)} />
    </Flex>
  );
}
