import { TeamOutlined, UserAddOutlined, UserDeleteOutlined } from '@ant-design/icons';
import type { StrategyDetail } from '@quantsquare/contracts';
import { Button, Card, Flex, Tag, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { LiveStatus } from '../../api/strategy-socket';
import { abbreviateNumber } from '../../shared/format/money';
import { UserAvatar } from '../../shared/ui/UserAvatar';
import { NewTag, ownerName } from './StrategyCardView';

export function LiveIndicator({ status }: { status: LiveStatus }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (status !== 'open') return null;
  return (
    <Tag
      color="success"
      style={{ marginInlineEnd: 0, display: 'inline-flex', alignItems: 'center', gap: 6 }}
      data-testid="strategy-live"
    >
      <span
        className="qs-pulse"
        style={{
          width: 8,
          height: 8,
          borderRadius: '50%',
          background: token.colorSuccess,
          display: 'inline-block',
        }}
      />
      {t('strategy.live')}
    </Tag>
  );
}

interface FollowButtonProps {
  isFollowing: boolean;
  isPending: boolean;
  onToggle: () => void;
}

export function FollowButton({ isFollowing, isPending, onToggle }: FollowButtonProps) {
  const { t } = useTranslation();
  return (
    <Button
      type={isFollowing ? 'default' : 'primary'}
      ghost={!isFollowing}
      icon={isFollowing ? <UserDeleteOutlined /> : <UserAddOutlined />}
      loading={isPending}
      onClick={onToggle}
      data-testid="follow-toggle"
      data-following={isFollowing}
    >
      {isFollowing ? t('strategy.unfollow') : t('strategy.follow')}
    </Button>
  );
}

interface Props {
  strategy: StrategyDetail;
  liveStatus: LiveStatus;
  /** The follow and copy buttons (absent for the owner). */
  actions: ReactNode;
}

/**
 * The strategy page's header (document 2 §2): avatar or initial, name, the owner's profile link,
 * exchange in upper case, follower count, and the live indicator while the connection is open.
 */
export function StrategyHeader({ strategy, liveStatus, actions }: Props) {
  const { t, i18n } = useTranslation();
  const owner = strategy.user_profile;
  const name = ownerName(owner.nickname, t('square.anonymous'));
  return (
    <Card size="small" data-testid="strategy-header">
      <Flex gap={16} align="center" wrap justify="space-between">
        <Flex gap={12} align="center" style={{ minWidth: 0, flex: '1 1 260px' }}>
          <UserAvatar url={owner.avatar_url} name={strategy.name} size={56} />
          <div style={{ minWidth: 0 }}>
            <Flex gap={8} align="center" wrap>
              <Typography.Title
                level={3}
                style={{ margin: 0, overflowWrap: 'anywhere' }}
                data-testid="strategy-name"
              >
                {strategy.name}
              </Typography.Title>
              <Tag color="blue" style={{ marginInlineEnd: 0 }} data-testid="strategy-exchange">
                {strategy.exchange.toUpperCase()}
              </Tag>
              {strategy.is_new && <NewTag />}
              <LiveIndicator status={liveStatus} />
            </Flex>
            <Flex gap={12} align="center" wrap style={{ marginTop: 4 }}>
              <Link to={`/user/${owner.user_id}`} data-testid="strategy-owner">
                {name}
              </Link>
              <Typography.Text type="secondary" data-testid="strategy-followers">
                <TeamOutlined />{' '}
                {t('strategy.followers', {
                  count: owner.followers_count,
                  followers: abbreviateNumber(owner.followers_count, i18n.language, 0),
                })}
              </Typography.Text>
            </Flex>
          </div>
        </Flex>
        <Flex gap={8} wrap>
          {actions}
        </Flex>
      </Flex>
    </Card>
  );
}
