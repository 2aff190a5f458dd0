import '../../i18n/notifications-texts';
import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Drawer, Popover } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotificationsLive, useUnreadNotifications } from '../../api/notifications';
import { useIsMobile } from '../../shared/ui/use-is-mobile';
import { NotificationPanel } from './NotificationPanel';

/**
 * The header's bell (desktop and phone): the unread count, kept live over the notifications
 * socket, and the list in a popover (desktop) or a bottom drawer (phone).
 */
export default function NotificationBell() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [open, setOpen] = useState(false);
  useNotificationsLive();
  const unread = useUnreadNotifications();
  const label =
    unread > 0 ? t('notifications.bellWithCount', { count: unread }) : t('notifications.bell');
  const bell = (
    <Button
      type="text"
      aria-label={label}
      data-testid="notification-bell"
      data-unread={unread}
      onClick={isMobile ? () => setOpen(true) : undefined}
      style={{ paddingInline: 6 }}
    >
      <Badge count={unread} size="small" overflowCount={99} data-testid="notification-count">
        <BellOutlined style={{ fontSize: 18 }} />
      </Badge>
    </Button>
  );
  if (isMobile) {
    return (
      <>
        {bell}
        <Drawer
          placement="bottom"
          size="auto"
          open={open}
          onClose={() => setOpen(false)}
          title={t('notifications.title')}
          styles={{ body: { padding: 12, maxHeight: '70vh', overflowY: 'auto' } }}
        >
          {open && <NotificationPanel unread={unread} hasTitle={false} />}
        </Drawer>
      </>
    );
  }
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      arrow={false}
      content={
        <div style={{ width: 380, maxWidth: '90vw' }}>
          {open && <NotificationPanel unread={unread} hasTitle />}
        </div>
      }
    >
      {bell}
    </Popover>
  );
}
