import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.js';

describe('secret box', () => {
  const box = createSecretBox('a-secret-key-of-enough-length-0123456789');

  it('round-trips a secret and never stores it in plaintext', () => {
    const stored = box.encrypt('JBSWY3DPEHPK3PXPJBSWY3DP');
    expect(stored).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(stored).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.decrypt(stored)).toBe('JBSWY3DPEHPK3PXPJBSWY3DP');
  });

  it('uses a fresh IV each time', () => {
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('refuses a tampered value and a value from another key', () => {
    const stored = box.encrypt('secret');
    const parts = stored.split(':');
    const tampered = [parts[0], parts[1], parts[2], `${parts[3]}AA`].join(':');
    expect(() => box.decrypt(tampered)).toThrow();
    expect(() =>
      createSecretBox('another-secret-key-of-enough-length-0000').decrypt(stored),
    ).toThrow();
  });
});
