import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { textFrame } from '../../src/common/socket-fan-out.js';

// The fan-out frames a message itself (once per event): its bytes must be exactly the frame ws
// writes for the same text message from a server (unmasked, uncompressed).
const { Sender } = createRequire(import.meta.url)('ws') as {
  Sender: { frame(data: Buffer, options: Record<string, unknown>): Buffer[] };
};

describe('textFrame', () => {
  it.each([0, 1, 125, 126, 65_535, 65_536, 300_000])(
    'frames a %i-byte message as ws does',
    (length) => {
      const payload = Buffer.alloc(length, 'a');
      const expected = Buffer.concat(
        Sender.frame(payload, { fin: true, rsv1: false, opcode: 1, mask: false, readOnly: true }),
      );
      expect(textFrame(payload).equals(expected)).toBe(true);
    },
  );
});
