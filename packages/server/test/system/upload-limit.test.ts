// The 5 MB upload limit holds every time, on avatars and editor images alike: a 6 MB file is
// refused with 413 however its bytes arrive — in one piece, or in chunks whose end falls exactly
// on the limit (busboy then marks the file truncated without another chunk, and the first 5 MB
// were stored as the whole file) — and nothing is stored.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { staffSession } from '../help/help-flows.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const t = useTestApp();
const LIMIT_BYTES = 5 * 1024 * 1024;
const BOUNDARY = '----quantsquare-upload-limit';

/** A real PNG followed by filler up to 6 MB: its first 5 MB still decode as an image. */
let sixMegabytes: Buffer;
beforeAll(async () => {
  const png = await sharp({
    create: { width: 64, height: 64, channels: 3, background: '#2a9d8f' },
  })
    .png()
    .toBuffer();
  sixMegabytes = Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024 - png.length, 7)]);
});

/** The multipart body in one piece, or in three chunks with a cut at exactly 5 MB of file. */
function body(field: string, split: boolean): Buffer | Readable {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="big.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  if (!split) return Buffer.concat([head, sixMegabytes, tail]);
  return Readable.from([
    Buffer.concat([head, sixMegabytes.subarray(0, LIMIT_BYTES)]),
    sixMegabytes.subarray(LIMIT_BYTES),
    tail,
  ]);
}

const ROUTES = [
  { url: '/api/strategy-square/profile/upload-avatar/', field: 'avatar', code: 'file_too_large' },
  { url: '/api/help/upload-image/', field: 'image', code: 'payload_too_large' },
] as const;

const storedFiles = (folder: string) => {
  try {
    return readdirSync(path.join(t.config.dataDir, 'uploads', folder));
  } catch {
    return [];
  }
};

describe('a 6 MB upload', () => {
  it.each(ROUTES)(
    'is refused with 413 on $url every time, and nothing is stored',
    async (route) => {
      const token = (
        route.field === 'image'
          ? await staffSession(t)
          : await registerEmail(t.app, uniqueEmail('biguploader'))
      ).access;
      for (let attempt = 0; attempt < 6; attempt++) {
        const res = await t.app.inject({
          method: 'POST',
          url: route.url,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          },
          payload: body(route.field, attempt % 2 === 1),
        });
        expect(res.statusCode, `attempt ${attempt}`).toBe(413);
        expect(res.json()).toMatchObject({ code: route.code });
      }
      expect(storedFiles('avatars')).toEqual([]);
      expect(storedFiles('help')).toEqual([]);
      if (route.field === 'avatar') {
        const own = await call<{ avatar_url: string | null }>(
          t.app,
          'GET',
          '/api/strategy-square/profile/',
          { token },
        );
        expect(own.body.avatar_url).toBeNull();
      }
    },
  );
});
