import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { testAdminService } from '../helpers/admin-service.js';
import { PASSWORD, registerEmail, type Session, uniqueEmail } from '../helpers/auth-flows.js';
import { call, type TestApp } from '../helpers/test-app.js';

const quietLog = { info: () => undefined };

/** A registered user promoted to staff with the admin command (as `npm run admin` does). */
export async function staffSession(t: TestApp): Promise<Session> {
  const email = uniqueEmail('staff');
  const session = await registerEmail(t.app, email);
  const admin = testAdminService({ db: t.database.db, clock: t.clock, log: quietLog });
  await admin.run({ command: 'create-staff', email, password: PASSWORD });
  return session;
}

export async function userSession(t: TestApp, prefix = 'reader'): Promise<Session> {
  return registerEmail(t.app, uniqueEmail(prefix));
}

export interface AnnouncementBody {
  id: number;
  title: string;
  summary: string;
  type: string;
  content: string;
  author_name: string;
  views: number;
  created_at: string;
  is_new: boolean;
}

export async function publish(
  app: FastifyInstance,
  token: string,
  fields: Partial<{ title: string; summary: string; type: string; content: string }> = {},
): Promise<AnnouncementBody> {
  const res = await call<AnnouncementBody>(app, 'POST', '/api/help/announcements/', {
    token,
    body: {
      title: 'Scheduled maintenance',
      summary: 'Trading pauses for 30 minutes',
      type: 'maintenance',
      content: '<p>We upgrade the matching engine.</p>',
      ...fields,
    },
  });
  if (res.status !== 201) throw new Error(`publish failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A multipart/form-data body with one file part (the name and type are whatever we claim). */
export function multipartFile(
  field: string,
  filename: string,
  contentType: string,
  bytes: Buffer,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----qs${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function uploadImage(
  app: FastifyInstance,
  token: string | undefined,
  bytes: Buffer,
  options: { field?: string; filename?: string; contentType?: string } = {},
) {
  const body = multipartFile(
    options.field ?? 'image',
    options.filename ?? 'picture.png',
    options.contentType ?? 'image/png',
    bytes,
  );
  const response = await app.inject({
    method: 'POST',
    url: '/api/help/upload-image/',
    payload: body.payload,
    headers: { ...body.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return {
    status: response.statusCode,
    body: JSON.parse(response.body) as Record<string, unknown> & {
      url: string;
      fields?: Record<string, string[]>;
    },
  };
}

export const pngBytes = (width = 40, height = 20) =>
  sharp({ create: { width, height, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();
