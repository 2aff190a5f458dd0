import { Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import { NotificationPanel } from './NotificationPanel';

/** The list in a bottom drawer (phone), a chunk of its own: the desktop header never needs it. */
export default function NotificationDrawer({
  open,
  unread,
  onClose,
}: {
  open: boolean;
  unread: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      placement="bottom"
      size="auto"
      open={open}
      onClose={onClose}
      title={t('notifications.title')}
      styles={{ body: { padding: 12, maxHeight: '70vh', overflowY: 'auto' } }}
    >
      {open && <NotificationPanel unread={unread} hasTitle={false} />}
    </Drawer>
  );
}
