import '../i18n/wallet-texts';
import { ProfileSettings } from '../features/profile/ProfileSettings';

/** /my/profile, the sidebar's VIP invitation: the same settings led by VIP and invitations. */
export function VipInvitationPage() {
  return <ProfileSettings lead="vipInvitation" />;
}
