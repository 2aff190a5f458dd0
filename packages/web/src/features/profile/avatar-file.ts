import { AVATAR_MAX_BYTES } from '@quantsquare/contracts';

// Checked in the browser before an upload (document 2 §5, §8); the server decides again from the
// file's content.

const ACCEPTED_TYPES = new Set(['image/jpeg', 'image/jpg', 'image/png', 'image/gif', 'image/webp']);
const ACCEPTED_EXTENSIONS = /\.(jpe?g|png|gif|webp)$/i;

export type AvatarFileProblem = 'tooLarge' | 'unsupported';

/** Why this file cannot be an avatar, or null: at most 5 MB, jpeg/jpg/png/gif/webp. */
export function avatarFileProblem(
  file: Pick<File, 'name' | 'size' | 'type'>,
): AvatarFileProblem | null {
  const isAccepted = file.type
    ? ACCEPTED_TYPES.has(file.type.toLowerCase())
    : ACCEPTED_EXTENSIONS.test(file.name);
  if (!isAccepted) return 'unsupported';
  if (file.size > AVATAR_MAX_BYTES) return 'tooLarge';
  return null;
}
