import '../../i18n/notifications-texts';
import { BellOutlined } from '@ant-design/icons';
import { Button, theme } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotificationsLive, useUnreadNotifications } from '../../api/notifications';
import { useIsMobile } from '../../shared/ui/use-is-mobile';

// The list (with its switches and typography), the desktop's popover and the phone's drawer load
// when first opened: every signed-in screen shows the bell, few open it.
const NotificationPopover = lazy(() => import('./NotificationPopover'));
const NotificationDrawer = lazy(() => import('./NotificationDrawer'));

/** The unread count on the bell's corner (antd's Badge brings its scrolling-number motion). */
function UnreadCount({ count }: { count: number }) {
  const { token } = theme.useToken();
  if (count <= 0) return null;
  return (
    <span
      data-testid="notification-count"
      style={{
        position: 'absolute',
        top: 0,
        insetInlineEnd: 0,
        transform: 'translate(40%, -30%)',
        minWidth: 16,
        height: 16,
        padding: '0 4px',
        borderRadius: 8,
        background: token.colorError,
        color: token.colorTextLightSolid,
        fontSize: 11,
        lineHeight: '16px',
        textAlign: 'center',
        boxShadow: `0 0 0 1px ${token.colorBgContainer}`,
      }}
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}

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
      onClick={isMobile || !hasOpened ? () => changeOpen(true) : undefined}
      style={{ paddingInline: 6 }}
    >
      <span style={{ position: 'relative', display: 'inline-flex' }}>
        <BellOutlined style={{ fontSize: 18 }} />
        <UnreadCount count={unread} />
      </span>
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
  // Until the first open the bell is a plain button; its click loads the popover, open.
  if (!hasOpened) return bell;
  return (
    <Suspense fallback={bell}>
      <NotificationPopover open={open} unread={unread} onOpenChange={changeOpen}>
        {bell}
      </NotificationPopover>
    </Suspense>
  );
}
