import type { Notification } from '@quantsquare/contracts';
import { Badge, Button, Empty, Flex, Spin, Switch, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  NOTIFICATIONS_DROPDOWN_PAGE_SIZE,
  useMarkNotificationsRead,
  useNotifications,
} from '../../api/notifications';
import { QueryErrorAlert } from '../../shared/ui/QueryState';
import { formatNotificationTime, notificationText } from './notification-text';

function Item({ notification }: { notification: Notification }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const markRead = useMarkNotificationsRead();
  return (
    <li
      data-testid="notification-item"
      data-read={notification.is_read ? 'true' : 'false'}
      style={{
        display: 'flex',
        gap: 8,
        alignItems: 'flex-start',
        padding: '10px 4px',
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      <span style={{ paddingTop: 6, width: 8, flex: 'none' }}>
        {!notification.is_read && <Badge status="processing" />}
      </span>
      <div style={{ flex: 1, minWidth: 0 }}>
        <div style={{ fontWeight: 500 }}>{t(`notifications.kinds.${notification.kind}`)}</div>
        <div style={{ color: token.colorTextSecondary, wordBreak: 'break-word' }}>
          {notificationText(t, notification, i18n.language)}
        </div>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {formatNotificationTime(notification.created_at)}
        </Typography.Text>
      </div>
      {!notification.is_read && (
        <Button
          size="small"
          type="link"
          loading={markRead.isPending}
          onClick={() => markRead.mutate({ ids: [notification.id] })}
          data-testid="notification-mark-read"
        >
          {t('notifications.markRead')}
        </Button>
      )}
    </li>
  );
}

/** The bell's list: newest first, unread filter, mark one or all read, load more. */
export function NotificationPanel({ unread, hasTitle }: { unread: number; hasTitle: boolean }) {
  const { t } = useTranslation();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [pageSize, setPageSize] = useState(NOTIFICATIONS_DROPDOWN_PAGE_SIZE);
  const list = useNotifications(unreadOnly, pageSize);
  const markRead = useMarkNotificationsRead();
  const results = list.data?.results ?? [];
  return (
    <Flex vertical gap={8} data-testid="notification-panel">
      <Flex justify={hasTitle ? 'space-between' : 'flex-end'} align="center" gap={8} wrap>
        {hasTitle && <Typography.Text strong>{t('notifications.title')}</Typography.Text>}
        <Flex align="center" gap={8}>
          <Flex align="center" gap={4}>
            <Switch
              size="small"
              checked={unreadOnly}
              onChange={setUnreadOnly}
              aria-label={t('notifications.unreadOnly')}
              data-testid="notification-unread-only"
            />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('notifications.unreadOnly')}
            </Typography.Text>
          </Flex>
          <Button
            size="small"
            disabled={unread === 0}
            loading={markRead.isPending}
            onClick={() => markRead.mutate({ all: true })}
            data-testid="notification-mark-all-read"
          >
            {t('notifications.markAllRead')}
          </Button>
        </Flex>
      </Flex>
      {list.isError && !list.data ? (
        <QueryErrorAlert
          query={list}
          failedText={t('notifications.loadFailed')}
          textOnly
          hideRetry
        />
      ) : list.isPending ? (
        <Flex justify="center" style={{ padding: 24 }}>
          <Spin />
        </Flex>
      ) : results.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notifications.empty')} />
      ) : (
        <ul
          data-testid="notification-list"
          style={{ listStyle: 'none', margin: 0, padding: 0, maxHeight: 420, overflowY: 'auto' }}
        >
          {results.map((notification) => (
            <Item key={notification.id} notification={notification} />
          ))}
        </ul>
      )}
      {list.data && list.data.count > results.length && (
        <Button
          type="link"
          onClick={() => setPageSize((size) => size + NOTIFICATIONS_DROPDOWN_PAGE_SIZE)}
          data-testid="notification-load-more"
        >
          {t('notifications.loadMore')}
        </Button>
      )}
    </Flex>
  );
}
