import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { call, useTestApp } from '../helpers/test-app.js';
import { newUser, type WalletUser } from '../helpers/wallet-flows.js';

const t = useTestApp();

type Own = Record<string, unknown> & { avatar_url: string | null };

const image = (format: 'png' | 'jpeg' | 'gif' | 'webp', size = 64) =>
  sharp({ create: { width: size, height: size, channels: 3, background: '#2a9d8f' } })
    .toFormat(format)
    .toBuffer();

/** A multipart upload as a browser sends it. */
async function upload(
  user: WalletUser,
  bytes: Buffer,
  options: { field?: string; filename?: string; contentType?: string } = {},
) {
  const boundary = '----quantsquare-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'avatar'}"; filename="${options.filename ?? 'me.png'}"\r\nContent-Type: ${options.contentType ?? 'image/png'}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/strategy-square/profile/upload-avatar/',
    headers: {
      authorization: `Bearer ${user.access}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat([head, bytes, tail]),
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

const fileOf = (url: string) =>
  path.join(t.config.dataDir, 'uploads', 'avatars', url.slice(url.lastIndexOf('/') + 1));

describe('GET/PUT /api/strategy-square/profile/', () => {
  it('answers the own profile with the four social counts (zeros until the square provides them)', async () => {
    const user = await newUser(t);
    const res = await call<Own>(t.app, 'GET', '/api/strategy-square/profile/', {
      token: user.access,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user_id: user.id,
      nickname: '',
      bio: '',
      avatar_url: null,
      created_at: expect.stringMatching(/^\d{4}-/),
      platform_balance: '0.00000000',
      is_vip: false,
      is_vip_active: false,
      vip_expires_at: null,
      following_count: 0,
      followers_count: 0,
      public_strategies_count: 0,
      total_copiers: 0,
    });
  });

  it('updates nickname and bio within their limits', async () => {
    const user = await newUser(t);
    const ok = await call<Own>(t.app, 'PUT', '/api/strategy-square/profile/', {
      token: user.access,
      body: { nickname: ` ${'n'.repeat(30)} `, bio: 'b'.repeat(200) },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ nickname: 'n'.repeat(30), bio: 'b'.repeat(200) });
    const tooLong = await call(t.app, 'PUT', '/api/strategy-square/profile/', {
      token: user.access,
      body: { nickname: 'n'.repeat(31), bio: 'b'.repeat(201) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({
      fields: { nickname: [expect.any(String)], bio: [expect.any(String)] },
    });
    expect(
      (
        await call(t.app, 'PUT', '/api/strategy-square/profile/', {
          token: user.access,
          body: { is_vip: true },
        })
      ).status,
    ).toBe(400);
  });

  it('needs a login', async () => {
    expect((await call(t.app, 'GET', '/api/strategy-square/profile/')).status).toBe(401);
    expect(
      (await call(t.app, 'DELETE', '/api/strategy-square/profile/delete-avatar/')).status,
    ).toBe(401);
  });
});

describe('avatar upload', () => {
  it.each(['png', 'jpeg', 'gif', 'webp'] as const)(
    'stores a %s re-encoded under a server-made name, serves it with nosniff and makes it the avatar',
    async (format) => {
      const user = await newUser(t);
      const res = await upload(user, await image(format, 900), { filename: 'avatar.exe' });
      expect(res.status).toBe(200);
      const url = String(res.body.avatar_url);
      const extension = format === 'jpeg' ? 'jpg' : format;
      expect(url).toMatch(new RegExp(`^/api/uploads/avatars/[a-f0-9]{32}\\.${extension}$`));
      const served = await t.app.inject({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(`image/${format}`);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta.format).toBe(format);
      expect(Math.max(meta.width ?? 0, meta.pageHeight ?? meta.height ?? 0)).toBeLessThanOrEqual(
        512,
      );
      const own = await call<Own>(t.app, 'GET', '/api/strategy-square/profile/', {
        token: user.access,
      });
      expect(own.body.avatar_url).toBe(url);
    },
  );

  it('decides the type by content: a script named .png is refused with the spec text', async () => {
    const user = await newUser(t);
    const res = await upload(user, Buffer.from('<svg onload="alert(1)"></svg>'), {
      filename: 'me.png',
      contentType: 'image/png',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      fields: { avatar: ['Format not supported, choose JPG, PNG, GIF or WebP'] },
    });
    const tiff = await upload(
      user,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .tiff()
        .toBuffer(),
    );
    expect(tiff.status).toBe(400);
  });

  it('refuses a file over 5 MB with the spec text', async () => {
    const user = await newUser(t);
    const res = await upload(user, Buffer.alloc(5 * 1024 * 1024 + 10, 1));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: 'File too large, max 5MB' });
  });

  it('accepts an image just under 5 MB', async () => {
    const user = await newUser(t);
    const noise = Buffer.alloc(1200 * 1200 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + (i >> 3) * 104729) % 251;
    const png = await sharp(noise, { raw: { width: 1200, height: 1200, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(png.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(png.length).toBeLessThan(5 * 1024 * 1024);
    expect((await upload(user, png)).status).toBe(200);
  });

  it('refuses a request without the avatar field', async () => {
    const user = await newUser(t);
    const res = await upload(user, await image('png'), { field: 'picture' });
    expect(res.status).toBe(400);
    const json = await call(t.app, 'POST', '/api/strategy-square/profile/upload-avatar/', {
      token: user.access,
      body: { avatar: 'x' },
    });
    expect(json.status).toBe(400);
  });

  it('removes the replaced file on a new upload and on delete-avatar', async () => {
    const user = await newUser(t);
    const first = String((await upload(user, await image('png'))).body.avatar_url);
    const second = String((await upload(user, await image('jpeg'))).body.avatar_url);
    expect(existsSync(fileOf(first))).toBe(false);
    expect(existsSync(fileOf(second))).toBe(true);
    const res = await call(t.app, 'DELETE', '/api/strategy-square/profile/delete-avatar/', {
      token: user.access,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ avatar_url: null, message: 'Avatar removed' });
    expect(existsSync(fileOf(second))).toBe(false);
    expect(
      (await call<Own>(t.app, 'GET', '/api/auth/profile/', { token: user.access })).body.avatar_url,
    ).toBeNull();
  });
});

describe('avatar_url in PUT (both profile routes)', () => {
  it.each(['/api/strategy-square/profile/', '/api/auth/profile/'])(
    '%s keeps the own avatar, removes it with null, and refuses any other URL',
    async (route) => {
      const user = await newUser(t);
      const other = await newUser(t);
      const mine = String((await upload(user, await image('png'))).body.avatar_url);
      const theirs = String((await upload(other, await image('png'))).body.avatar_url);

      const keep = await call<Own>(t.app, 'PUT', route, {
        token: user.access,
        body: { avatar_url: mine, nickname: 'Keeper' },
      });
      expect(keep.status).toBe(200);
      expect(keep.body).toMatchObject({ avatar_url: mine, nickname: 'Keeper' });

      for (const url of [
        theirs,
        'https://evil.example/x.png',
        '/api/uploads/avatars/../secret.key',
        'javascript:alert(1)',
      ]) {
        const res = await call(t.app, 'PUT', route, {
          token: user.access,
          body: { avatar_url: url },
        });
        expect(res.status, url).toBe(400);
        expect(res.body).toMatchObject({ fields: { avatar_url: [expect.any(String)] } });
      }
      expect(existsSync(fileOf(theirs))).toBe(true);

      const removed = await call<Own>(t.app, 'PUT', route, {
        token: user.access,
        body: { avatar_url: null },
      });
      expect(removed.body.avatar_url).toBeNull();
      expect(existsSync(fileOf(mine))).toBe(false);
      expect(
        (await call<Own>(t.app, 'GET', '/api/strategy-square/profile/', { token: other.access }))
          .body.avatar_url,
      ).toBe(theirs);
    },
  );
});
