import { AVATAR_MAX_BYTES } from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
import { avatarFileProblem } from '../src/features/profile/avatar-file';

describe('avatar file check before upload (document 2 §5)', () => {
  it.each([
    ['me.jpg', 'image/jpeg', 1000, null],
    ['me.png', 'image/png', AVATAR_MAX_BYTES, null],
    ['me.gif', 'image/gif', 10, null],
    ['me.webp', 'image/webp', 10, null],
    ['me.webp', '', 10, null],
    ['me.png', 'image/png', AVATAR_MAX_BYTES + 1, 'tooLarge'],
    ['me.svg', 'image/svg+xml', 10, 'unsupported'],
    ['me.bmp', 'image/bmp', 10, 'unsupported'],
    ['notes.txt', '', 10, 'unsupported'],
  ] as const)('%s (%s, %i bytes) → %s', (name, type, size, problem) => {
    expect(avatarFileProblem({ name, type, size })).toBe(problem);
  });
});
