import '../../i18n/accounts-texts';
import { type CopyRelation, EXPERIENCE_ACCOUNT_NAME } from '@quantsquare/contracts';
import { Flex, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { UserAvatar } from '../../shared/ui/UserAvatar';

/**
 * An account name as a copy shows it: every new user's paper account carries the server's English
 * default, said here in the reader's language (the relation has no is_experience flag; the
 * default name is only ever given to that account).
 */
export function copyAccountName(name: string, t: TFunction): string {
  return name === EXPERIENCE_ACCOUNT_NAME ? t('apis.experienceName') : name;
}

/** A copy is named as the square names the strategy: its published name, else the account's. */
export function copyStrategyName(relation: CopyRelation, t: TFunction): string {
  return copyAccountName(relation.strategy_name ?? relation.leader_account_name, t);
}

/** Who follows, for the leader: the nickname, else the masked e-mail or phone. */
export function copyFollowerName(relation: CopyRelation): string {
  return relation.follower_nickname || relation.follower_email || relation.follower_phone || '—';
}

/** The leader's avatar, the strategy's name and "by nickname" (as Binance and OKX head a copy). */
export function CopyLeaderTitle({
  relation,
  isHeading,
  extra,
}: {
  relation: CopyRelation;
  /** The detail page's header: a bigger avatar, the name as a heading linking to the strategy. */
  isHeading?: boolean;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const name = copyStrategyName(relation, t);
  const nickname = relation.leader_nickname || t('copy.names.anonymousLeader');
  return (
    <Flex gap={10} align="center" style={{ minWidth: 0 }}>
      <UserAvatar url={relation.leader_avatar_url} name={nickname} size={isHeading ? 44 : 32} />
      <Flex vertical gap={2} style={{ minWidth: 0 }}>
        <Flex gap={6} align="center" wrap>
          {isHeading ? (
            <Typography.Title
              level={4}
              style={{ margin: 0 }}
              ellipsis
              data-testid="copy-strategy-name"
            >
              <Link to={`/strategy/${relation.leader_account_id}`}>{name}</Link>
            </Typography.Title>
          ) : (
            <Typography.Text
              strong
              ellipsis
              style={{ maxWidth: 240 }}
              data-testid="copy-strategy-name"
            >
              {name}
            </Typography.Text>
          )}
          {extra}
        </Flex>
        <Typography.Text
          type="secondary"
          style={{ fontSize: 12 }}
          data-testid="copy-leader-nickname"
        >
          {t('copy.names.byLeader', { nickname })}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}
