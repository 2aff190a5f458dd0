import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  type AnnouncementBody,
  pngBytes,
  publish,
  staffSession,
  uploadImage,
  userSession,
} from './help-flows.js';

const t = useTestApp();
let staff: Session;
let user: Session;

beforeAll(async () => {
  staff = await staffSession(t);
  user = await userSession(t);
});

const body = {
  title: 'New feature',
  summary: 'Reverse copy trading',
  type: 'important',
  content: '<p>Copy in the <strong>opposite</strong> direction.</p>',
};

describe('who may do what with announcements', () => {
  it('lets anyone read the list and one announcement', async () => {
    const created = await publish(t.app, staff.access);
    for (const token of [undefined, user.access, staff.access]) {
      const list = await call<{ results: AnnouncementBody[] }>(
        t.app,
        'GET',
        '/api/help/announcements/',
        { token },
      );
      expect(list.status).toBe(200);
      expect(list.body.results.map((a) => a.id)).toContain(created.id);
      const one = await call(t.app, 'GET', `/api/help/announcements/${created.id}/`, { token });
      expect(one.status).toBe(200);
    }
  });

  it('lets only staff publish: visitors 401, other users 403', async () => {
    expect((await call(t.app, 'POST', '/api/help/announcements/', { body })).status).toBe(401);
    const refused = await call(t.app, 'POST', '/api/help/announcements/', {
      token: user.access,
      body,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'forbidden' });
    const created = await call<AnnouncementBody>(t.app, 'POST', '/api/help/announcements/', {
      token: staff.access,
      body,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...body, views: 0, is_new: false });
  });

  it('refuses a non-staff write before looking at the body', async () => {
    const res = await call(t.app, 'POST', '/api/help/announcements/', {
      token: user.access,
      body: { nonsense: true },
    });
    expect(res.status).toBe(403);
  });

  it('lets only staff edit: visitors 401, other users 403', async () => {
    const created = await publish(t.app, staff.access);
    const url = `/api/help/announcements/${created.id}/`;
    expect((await call(t.app, 'PUT', url, { body })).status).toBe(401);
    expect((await call(t.app, 'PUT', url, { token: user.access, body })).status).toBe(403);
    const edited = await call<AnnouncementBody>(t.app, 'PUT', url, { token: staff.access, body });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: created.id, ...body });
    const missing = await call(t.app, 'PUT', '/api/help/announcements/999999/', {
      token: staff.access,
      body,
    });
    expect(missing.status).toBe(404);
  });

  it('lets only staff delete: visitors 401, other users 403', async () => {
    const created = await publish(t.app, staff.access);
    const url = `/api/help/announcements/${created.id}/`;
    expect((await call(t.app, 'DELETE', url)).status).toBe(401);
    expect((await call(t.app, 'DELETE', url, { token: user.access })).status).toBe(403);
    expect((await call(t.app, 'DELETE', url, { token: staff.access })).status).toBe(204);
    expect((await call(t.app, 'GET', url)).status).toBe(404);
    expect((await call(t.app, 'DELETE', url, { token: staff.access })).status).toBe(404);
  });

  it('lets signed-in readers mark read; visitors get 401', async () => {
    const created = await publish(t.app, staff.access);
    const url = `/api/help/announcements/${created.id}/mark-read/`;
    expect((await call(t.app, 'POST', url)).status).toBe(401);
    expect((await call(t.app, 'POST', url, { token: user.access })).status).toBe(200);
    expect((await call(t.app, 'POST', url, { token: staff.access })).status).toBe(200);
    const missing = await call(t.app, 'POST', '/api/help/announcements/999999/mark-read/', {
      token: user.access,
    });
    expect(missing.status).toBe(404);
  });

  it('answers the unread count to everyone, 0 for visitors', async () => {
    const visitor = await call(t.app, 'GET', '/api/help/announcements/unread-count/');
    expect(visitor).toMatchObject({ status: 200, body: { count: 0 } });
    for (const token of [user.access, staff.access]) {
      const res = await call<{ count: number }>(
        t.app,
        'GET',
        '/api/help/announcements/unread-count/',
        { token },
      );
      expect(res.status).toBe(200);
      expect(typeof res.body.count).toBe('number');
    }
  });

  it('lets only staff upload editor images: visitors 401, other users 403', async () => {
    const image = await pngBytes();
    expect((await uploadImage(t.app, undefined, image)).status).toBe(401);
    expect((await uploadImage(t.app, user.access, image)).status).toBe(403);
    expect((await uploadImage(t.app, staff.access, image)).status).toBe(201);
  });

  it('refuses an invalid token on public reads with 401, so the client refreshes it', async () => {
    for (const url of ['/api/help/announcements/', '/api/help/announcements/unread-count/']) {
      expect((await call(t.app, 'GET', url, { token: 'not-a-token' })).status).toBe(401);
    }
  });

  it('answers the contact details to anyone, exactly the four configured fields', async () => {
    for (const token of [undefined, user.access, staff.access]) {
      const res = await call(t.app, 'GET', '/api/help/contact/', { token });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual([
        'support_email',
        'telegram_url',
        'website_url',
        'x_url',
      ]);
    }
  });
});

describe('contact details from configuration', () => {
  const configured = useTestApp({
    env: {
      SUPPORT_EMAIL: 'help@desk.example',
      TELEGRAM_URL: 'https://t.me/desk',
      X_URL: 'https://x.com/desk',
      WEBSITE_URL: 'https://desk.example',
    },
  });

  it('serves what the environment says', async () => {
    const res = await call(configured.app, 'GET', '/api/help/contact/');
    expect(res.body).toEqual({
      support_email: 'help@desk.example',
      telegram_url: 'https://t.me/desk',
      x_url: 'https://x.com/desk',
      website_url: 'https://desk.example',
    });
  });
});
