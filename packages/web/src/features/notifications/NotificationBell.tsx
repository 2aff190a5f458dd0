import '../../i18n/notifications-texts';
import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotificationsLive, useUnreadNotifications } from '../../api/notifications';
import { Spinner } from '../../shared/ui/Spinner';
import { useIsMobile } from '../../shared/ui/use-is-mobile';

// The list (with its switches and typography) and the phone's drawer load when first opened:
// every signed-in screen shows the bell, few open it.
const NotificationPanel = lazy(() =>
  import('./NotificationPanel').then((m) => ({ default: m.NotificationPanel })),
);
const NotificationDrawer = lazy(() => import('./NotificationDrawer'));

/**
 * The header's bell (desktop and phone): the unread count, kept live over the notifications
 * socket, and the list in a popover (desktop) or a bottom drawer (phone).
 */
export default function NotificationBell() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [open, setOpen] = useState(false);
  const [hasOpened, setHasOpened] = useState(false);
  const changeOpen = (next: boolean) => {
    if (next) setHasOpened(true);
    setOpen(next);
  };
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
      onClick={isMobile ? () => changeOpen(true) : undefined}
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
        {hasOpened && (
          <Suspense fallback={null}>
            <NotificationDrawer open={open} unread={unread} onClose={() => changeOpen(false)} />
          </Suspense>
        )}
      </>
    );
  }
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={changeOpen}
      arrow={false}
      content={
        <div style={{ width: 380, maxWidth: '90vw' }}>
          {open && (
            <Suspense fallback={<Spinner />}>
              <NotificationPanel unread={unread} hasTitle />
            </Suspense>
          )}
        </div>
      }
    >
      {bell}
    </Popover>
  );
}
