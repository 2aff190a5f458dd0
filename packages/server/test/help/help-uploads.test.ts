import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { multipartFile, pngBytes, publish, staffSession, uploadImage } from './help-flows.js';

const t = useTestApp();
let staff: Session;

beforeAll(async () => {
  staff = await staffSession(t);
});

const fixture = (name: string) =>
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', name));
const upload = (bytes: Buffer, filename: string, contentType: string) =>
  uploadImage(t.app, staff.access, bytes, { filename, contentType });
const served = (url: string) => t.app.inject({ method: 'GET', url });

const jpeg = () =>
  sharp({ create: { width: 30, height: 30, channels: 3, background: '#ff8800' } })
    .jpeg()
    .toBuffer();
const gif = () =>
  sharp({ create: { width: 12, height: 8, channels: 3, background: '#00aa00' } })
    .gif()
    .toBuffer();
const webp = () =>
  sharp({ create: { width: 12, height: 8, channels: 3, background: '#00aa00' } })
    .webp()
    .toBuffer();

describe('editor image uploads', () => {
  it.each([
    ['a PNG', pngBytes, 'a.png', 'image/png', 'png', 'image/png'],
    ['a JPEG', jpeg, 'a.jpg', 'image/jpeg', 'jpg', 'image/jpeg'],
    ['a GIF', gif, 'a.gif', 'image/gif', 'gif', 'image/gif'],
    ['a BMP', async () => fixture('bmp24.bmp'), 'a.bmp', 'image/bmp', 'png', 'image/png'],
    [
      'a bitmap icon',
      async () => fixture('ico-bmp32.ico'),
      'a.ico',
      'image/x-icon',
      'png',
      'image/png',
    ],
    [
      'a PNG icon',
      async () => fixture('ico-png-256.ico'),
      'a.ico',
      'image/x-icon',
      'png',
      'image/png',
    ],
  ])(
    'stores %s re-encoded and serves it with nosniff',
    async (_name, make, filename, type, extension, servedType) => {
      const res = await upload(await make(), filename, type);
      expect(res.status).toBe(201);
      expect(res.body.url).toMatch(new RegExp(`^/api/uploads/help/[a-f0-9]{32}\\.${extension}$`));
      const file = await served(res.body.url);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe(servedType);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['content-security-policy']).toContain('sandbox');
      const metadata = await sharp(file.rawPayload).metadata();
      expect([metadata.width, metadata.height]).toEqual([res.body.width, res.body.height]);
    },
  );

  it('decides the type by the bytes, not the name or the declared type', async () => {
    const pngAsBmp = await upload(await pngBytes(), 'photo.bmp', 'image/bmp');
    expect(pngAsBmp.status).toBe(201);
    expect(pngAsBmp.body.url).toMatch(/\.png$/);
    const bmpAsJpeg = await upload(fixture('bmp8.bmp'), 'photo.jpg', 'image/jpeg');
    expect(bmpAsJpeg.status).toBe(201);
    expect(bmpAsJpeg.body.url).toMatch(/\.png$/);
  });

  it.each([
    [
      'HTML claiming to be a PNG',
      Buffer.from('<html><script>alert(1)</script></html>'),
      'x.png',
      'image/png',
    ],
    [
      'SVG claiming to be a PNG',
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><rect width="10" height="10"/></svg>',
      ),
      'x.png',
      'image/png',
    ],
    ['JavaScript claiming to be a GIF', Buffer.from('GIF89a=1;alert(1)//'), 'x.gif', 'image/gif'],
    ['a truncated bitmap', fixture('bmp24.bmp').subarray(0, 90), 'x.bmp', 'image/bmp'],
    [
      'a truncated PNG',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
      'x.png',
      'image/png',
    ],
    ['an empty file', Buffer.alloc(0), 'x.png', 'image/png'],
    [
      'random bytes',
      Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 73) % 256)),
      'x.ico',
      'image/x-icon',
    ],
  ])('refuses %s', async (_name, bytes, filename, type) => {
    const res = await upload(bytes, filename, type);
    expect(res.status).toBe(400);
    expect(res.body.fields?.image).toEqual([
      'Unsupported image: choose a PNG, GIF, JPEG, BMP or ICO file',
    ]);
  });

  it('refuses image types the editor does not offer (WebP)', async () => {
    const res = await upload(await webp(), 'x.webp', 'image/webp');
    expect(res.status).toBe(400);
  });

  it('drops whatever rides along after the image data', async () => {
    const payload = '<script>alert("polyglot")</script>';
    for (const [bytes, name] of [
      [Buffer.concat([await pngBytes(), Buffer.from(payload)]), 'p.png'],
      [Buffer.concat([fixture('bmp24.bmp'), Buffer.from(payload)]), 'p.bmp'],
    ] as const) {
      const res = await upload(bytes, name, 'image/png');
      expect(res.status).toBe(201);
      expect((await served(res.body.url)).rawPayload.includes(payload)).toBe(false);
    }
  });

  it('scales large images down to 1920 pixels on the longer side', async () => {
    const res = await upload(await pngBytes(3000, 100), 'wide.png', 'image/png');
    expect(res.status).toBe(201);
    expect(res.body.width).toBe(1920);
  });

  it('answers 413 above 5 MB', async () => {
    const big = Buffer.concat([await pngBytes(), Buffer.alloc(5 * 1024 * 1024 + 1)]);
    const res = await upload(big, 'big.png', 'image/png');
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'payload_too_large' });
  });

  it('wants the file in the field "image"', async () => {
    const res = await uploadImage(t.app, staff.access, await pngBytes(), { field: 'file' });
    expect(res.status).toBe(400);
    expect(res.body.fields?.image).toEqual(['Choose an image to upload']);
  });

  it('answers 400 to an upload that is not multipart', async () => {
    const json = await call(t.app, 'POST', '/api/help/upload-image/', {
      token: staff.access,
      body: { image: 'data:image/png;base64,AAAA' },
    });
    expect(json.status).toBe(400);
    const form = multipartFile('image', 'a.png', 'image/png', await pngBytes());
    const cut = await t.app.inject({
      method: 'POST',
      url: '/api/help/upload-image/',
      headers: { ...form.headers, authorization: `Bearer ${staff.access}` },
      payload: form.payload.subarray(0, 60),
    });
    expect(cut.statusCode).toBe(400);
    expect(JSON.parse(cut.body).fields.image).toEqual([
      'The upload was cut off or malformed; try again',
    ]);
  });
});

describe('images of deleted or edited announcements', () => {
  it('removes an image once no announcement shows it any more', async () => {
    const url = (await upload(await pngBytes(), 'a.png', 'image/png')).body.url;
    const first = await publish(t.app, staff.access, { content: `<p>a<img src="${url}"></p>` });
    const second = await publish(t.app, staff.access, { content: `<p>b<img src="${url}"></p>` });

    await call(t.app, 'DELETE', `/api/help/announcements/${first.id}/`, { token: staff.access });
    expect((await served(url)).statusCode).toBe(200);
    await call(t.app, 'PUT', `/api/help/announcements/${second.id}/`, {
      token: staff.access,
      body: { title: 'T', summary: 'S', type: 'normal', content: '<p>no picture now</p>' },
    });
    expect((await served(url)).statusCode).toBe(404);
  });

  it('keeps an image an edit still shows', async () => {
    const url = (await upload(await pngBytes(), 'a.png', 'image/png')).body.url;
    const created = await publish(t.app, staff.access, { content: `<p><img src="${url}"></p>` });
    await call(t.app, 'PUT', `/api/help/announcements/${created.id}/`, {
      token: staff.access,
      body: {
        title: 'T',
        summary: 'S',
        type: 'normal',
        content: `<p>new text<img src="${url}"></p>`,
      },
    });
    expect((await served(url)).statusCode).toBe(200);
  });
});
