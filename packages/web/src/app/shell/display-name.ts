/** The name shown for the signed-in user: the nickname, else the username. */
export function displayName(profile: { nickname?: string; username: string } | undefined): string {
  if (!profile) return '';
  return profile.nickname?.trim() || profile.username;
}
