import '../i18n/wallet-texts';
import { Flex } from 'antd';
import { NotificationSettingsCard } from '../features/notifications/NotificationSettingsCard';
import { ProfileSettings } from '../features/profile/ProfileSettings';

/**
 * /my/settings (the target of /profile): profile settings led by the profile itself, then the
 * notification settings.
 */
export function ProfileSettingsPage() {
  return (
    <Flex vertical gap={16}>
      <ProfileSettings lead="profile" />
      <div style={{ maxWidth: 720, minWidth: 0 }}>
        <NotificationSettingsCard />
      </div>
    </Flex>
  );
}
