import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createImageStore, UnsupportedImage } from '../../src/uploads/image-store.js';
import { useTestApp } from '../helpers/test-app.js';

const png = () =>
  sharp({ create: { width: 40, height: 20, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();

describe('the image store', () => {
  const t = useTestApp();

  it('re-encodes an image under a server-made name and serves it with nosniff', async () => {
    const store = createImageStore({ uploadsDir: `${t.config.dataDir}/uploads` });
    const saved = await store.save(await png(), {
      folder: 'avatars',
      accept: ['png', 'jpeg'],
      maxSidePx: 16,
    });
    expect(saved.url).toMatch(/^\/api\/uploads\/avatars\/[a-f0-9]{32}\.png$/);
    expect([saved.width, saved.height]).toEqual([16, 8]);
    expect(store.isOwnUrl(saved.url, 'avatars')).toBe(true);
    expect(store.isOwnUrl(saved.url, 'help')).toBe(false);

    const served = await t.app.inject({ method: 'GET', url: saved.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect((await sharp(served.rawPayload).metadata()).format).toBe('png');

    await store.remove(saved.url);
    expect((await t.app.inject({ method: 'GET', url: saved.url })).statusCode).toBe(404);
  });

  it('decides the type from the bytes, not the name', async () => {
    const store = createImageStore({ uploadsDir: `${t.config.dataDir}/uploads` });
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    await expect(
      store.save(html, { folder: 'avatars', accept: ['png'], maxSidePx: 64 }),
    ).rejects.toBeInstanceOf(UnsupportedImage);
    await expect(
      store.save(await png(), { folder: 'avatars', accept: ['jpeg'], maxSidePx: 64 }),
    ).rejects.toBeInstanceOf(UnsupportedImage);
  });

  it('answers 404 for names that are not ours', async () => {
    for (const url of [
      '/api/uploads/avatars/..%2F..%2Fsecret.key',
      '/api/uploads/other/0123456789abcdef0123456789abcdef.png',
      '/api/uploads/avatars/0123456789abcdef0123456789abcdef.html',
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });
});
