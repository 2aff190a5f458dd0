import { Popover } from 'antd';
import { lazy, type ReactElement, Suspense } from 'react';
import { Spinner } from '../../shared/ui/Spinner';

const NotificationPanel = lazy(() =>
  import('./NotificationPanel').then((m) => ({ default: m.NotificationPanel })),
);

/** The desktop list under the bell: loaded with the first open (antd's Popover and the list). */
export default function NotificationPopover({
  open,
  unread,
  onOpenChange,
  children,
}: {
  open: boolean;
  unread: number;
  onOpenChange: (open: boolean) => void;
  children: ReactElement;
}) {
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={onOpenChange}
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
      {children}
    </Popover>
  );
}
