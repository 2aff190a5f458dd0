import '../i18n/wallet-texts';
import { ProfileSettings } from '../features/profile/ProfileSettings';

/** /my/settings (the target of /profile): profile settings led by the profile itself. */
export function ProfileSettingsPage() {
  return <ProfileSettings lead="profile" />;
}
