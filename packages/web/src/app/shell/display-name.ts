import { maskPhone } from '../../shared/format/mask-phone';

/**
 * The name shown for the signed-in user: the nickname, else the username. A phone user's
 * username is the phone number, shown with its middle four digits masked (as /my/security does).
 */
export function displayName(
  profile: { nickname?: string; username: string; phone?: string | null } | undefined,
): string {
  if (!profile) return '';
  const name = profile.nickname?.trim() || profile.username;
  return profile.phone && name === profile.phone ? maskPhone(name) : name;
}
