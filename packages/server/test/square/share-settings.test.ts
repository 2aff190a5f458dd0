import { SHARE_DESCRIPTION_MAX_LENGTH, SQUARE_MESSAGES } from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
import { createPaperAccount } from '../helpers/bot-flows.js';
import { call } from '../helpers/test-app.js';
import { squareList, trader, useSquareApp } from './square-fixture.js';

const t = useSquareApp();
const settingsUrl = (id: number) => `/api/strategy-square/accounts/${id}/share-settings/`;
const statusUrl = (id: number) => `/api/strategy-square/accounts/${id}/check-share-status/`;

describe('share settings of an exchange account', () => {
  it('answers the defaults before the first save, then what was saved', async () => {
    const owner = await trader(t.app, 'Sharer');
    const id = await createPaperAccount(t.app, owner.token, { name: 'Main paper' });

    const status = await call(t.app, 'GET', statusUrl(id), { token: owner.token });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ has_share_settings: false, is_public: false, updated_at: null });
    const before = await call(t.app, 'GET', settingsUrl(id), { token: owner.token });
    expect(before.body).toMatchObject({
      account_id: id,
      name: 'Main paper',
      is_public: false,
      accept_copy: true,
      show_trades: true,
      show_positions: true,
      allow_comments: true,
      copiers_count: 0,
      total_copy_earnings: '0',
      description: '',
      updated_at: null,
      published_at: null,
    });

    const saved = await call(t.app, 'PUT', settingsUrl(id), {
      token: owner.token,
      body: { is_public: true, name: 'Trend rider', show_positions: false },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      is_public: true,
      name: 'Trend rider',
      show_positions: false,
    });
    expect(saved.body.published_at).toEqual(expect.any(String));
    const after = await call(t.app, 'GET', statusUrl(id), { token: owner.token });
    expect(after.body).toMatchObject({ has_share_settings: true, is_public: true });
  });

  it('accepts the whole settings object back, ignoring the read-only fields', async () => {
    const owner = await trader(t.app, 'Roundtrip');
    const id = await createPaperAccount(t.app, owner.token);
    const current = await call(t.app, 'GET', settingsUrl(id), { token: owner.token });
    const res = await call(t.app, 'PUT', settingsUrl(id), {
      token: owner.token,
      body: {
        ...current.body,
        copiers_count: 999,
        total_copy_earnings: '5',
        allow_comments: false,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      copiers_count: 0,
      total_copy_earnings: '0',
      allow_comments: false,
    });
  });

  it('switching public off resets accept_copy, show_trades, show_positions and allow_comments', async () => {
    const owner = await trader(t.app, 'Toggler');
    const id = await createPaperAccount(t.app, owner.token);
    await call(t.app, 'PUT', settingsUrl(id), {
      token: owner.token,
      body: {
        is_public: true,
        accept_copy: false,
        show_trades: false,
        show_positions: false,
        allow_comments: false,
      },
    });
    const off = await call(t.app, 'PUT', settingsUrl(id), {
      token: owner.token,
      body: { is_public: false },
    });
    expect(off.body).toMatchObject({
      is_public: false,
      accept_copy: true,
      show_trades: true,
      show_positions: true,
      allow_comments: true,
    });
  });

  it("answers 404 for another user's account, read or write, and 401 without a token", async () => {
    const owner = await trader(t.app, 'Owner404');
    const other = await trader(t.app, 'Snoop');
    const id = await createPaperAccount(t.app, owner.token);
    for (const [method, url] of [
      ['GET', statusUrl(id)],
      ['GET', settingsUrl(id)],
      ['PUT', settingsUrl(id)],
    ] as const) {
      const res = await call(t.app, method, url, {
        token: other.token,
        ...(method === 'PUT' ? { body: { is_public: true } } : {}),
      });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.error).toBe(SQUARE_MESSAGES.accountNotFound);
    }
    expect((await call(t.app, 'GET', settingsUrl(id))).status).toBe(401);
    // The owner's settings are untouched by the refused write.
    const mine = await call(t.app, 'GET', statusUrl(id), { token: owner.token });
    expect(mine.body).toMatchObject({ has_share_settings: false, is_public: false });
  });

  it('refuses unknown fields, bad types and an empty name', async () => {
    const owner = await trader(t.app, 'Strict');
    const id = await createPaperAccount(t.app, owner.token);
    for (const body of [
      { is_public: 'yes' },
      { hacker: true },
      { name: '   ' },
      { name: 'x'.repeat(51) },
    ]) {
      const res = await call(t.app, 'PUT', settingsUrl(id), { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields).toBeDefined();
    }
  });

  it('a private account is never listed; publishing lists it at once, unpublishing removes it', async () => {
    const owner = await trader(t.app, 'Lister');
    const id = await createPaperAccount(t.app, owner.token);
    await call(t.app, 'PUT', settingsUrl(id), { token: owner.token, body: { name: 'Hidden gem' } });
    const ids = async () =>
      (await squareList(t.app, 'page_size=50&sort=latest&search=Hidden%20gem')).body.results.map(
        (r) => r.id,
      );
    expect(await ids()).toEqual([]);
    await call(t.app, 'PUT', settingsUrl(id), { token: owner.token, body: { is_public: true } });
    expect(await ids()).toEqual([id]);
    await call(t.app, 'PUT', settingsUrl(id), { token: owner.token, body: { is_public: false } });
    expect(await ids()).toEqual([]);
  });
});

describe('the description (rich text)', () => {
  // An XSS corpus: every entry must come back without anything executable.
  const corpus = [
    '<script>alert(1)</script>Hello',
    '<img src=x onerror=alert(1)>',
    '<p onclick="alert(1)">click</p>',
    '<a href="javascript:alert(1)">link</a>',
    '<a href="JaVaScRiPt:alert(1)">link</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
    '<a href="vbscript:msgbox(1)">vb</a>',
    '<svg onload=alert(1)><circle/></svg>',
    '<iframe src="https://evil.example"></iframe>',
    '<style>body{display:none}</style>text',
    '<p style="background:url(javascript:alert(1))">styled</p>',
    '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
    '<object data="evil.swf"></object>',
    '<form action="https://evil.example"><input name=x></form>',
    '<a href="&#106;avascript:alert(1)">entity</a>',
    '<<script>script>alert(1)<</script>/script>',
    '<img src="/api/uploads/x.png" onerror="alert(1)">',
    '<p>ok</p><base href="https://evil.example/">',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<a href="  javascript:alert(1)">spaced</a>',
  ];
  it('keeps only the editor allowlist, whatever is sent', async () => {
    const owner = await trader(t.app, 'Xss');
    const id = await createPaperAccount(t.app, owner.token);
    for (const html of corpus) {
      const res = await call<{ description: string }>(t.app, 'PUT', settingsUrl(id), {
        token: owner.token,
        body: { description: html },
      });
      expect(res.status, html).toBe(200);
      const stored = res.body.description.toLowerCase();
      for (const bad of [
        '<script',
        'javascript:',
        'vbscript:',
        'data:',
        ' on',
        '<svg',
        '<iframe',
        '<style',
        'style=',
        '<object',
        '<form',
        '<input',
        '<img',
        '<base',
        '<meta',
        '<math',
      ]) {
        expect(stored, `${html} → ${res.body.description}`).not.toContain(bad);
      }
    }
  });

  it('keeps the toolbar formatting and safe links', async () => {
    const owner = await trader(t.app, 'Formatter');
    const id = await createPaperAccount(t.app, owner.token);
    const res = await call<{ description: string }>(t.app, 'PUT', settingsUrl(id), {
      token: owner.token,
      body: {
        description:
          '<h2>Plan</h2><p><strong>Bold</strong> <em>it</em> <u>u</u> <a href="https://example.com">site</a> <a href="mailto:a@b.co">mail</a></p><ol><li data-list="bullet">one</li></ol>',
      },
    });
    expect(res.body.description).toContain('<h2>Plan</h2>');
    expect(res.body.description).toContain('<strong>Bold</strong>');
    expect(res.body.description).toContain('href="https://example.com"');
    expect(res.body.description).toContain('href="mailto:a@b.co"');
    expect(res.body.description).toContain('rel="noopener noreferrer"');
    expect(res.body.description).toContain('<li data-list="bullet">one</li>');
  });

  it('counts visible characters: 2,000 pass with markup, 2,001 are refused', async () => {
    const owner = await trader(t.app, 'Counter');
    const id = await createPaperAccount(t.app, owner.token);
    const ok = `<p><strong>${'a'.repeat(SHARE_DESCRIPTION_MAX_LENGTH - 1)}</strong>é</p>`;
    expect(
      (await call(t.app, 'PUT', settingsUrl(id), { token: owner.token, body: { description: ok } }))
        .status,
    ).toBe(200);
    const tooLong = `<p>${'b'.repeat(SHARE_DESCRIPTION_MAX_LENGTH + 1)}</p>`;
    const refused = await call(t.app, 'PUT', settingsUrl(id), {
      token: owner.token,
      body: { description: tooLong },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({ description: [SQUARE_MESSAGES.descriptionTooLong] });
    // Nothing of the refused write was stored.
    const current = await call<{ description: string }>(t.app, 'GET', settingsUrl(id), {
      token: owner.token,
    });
    expect(current.body.description).toBe(ok);
  });

  it('stores an empty editor document as no description', async () => {
    const owner = await trader(t.app, 'Empty');
    const id = await createPaperAccount(t.app, owner.token);
    const res = await call(t.app, 'PUT', settingsUrl(id), {
      token: owner.token,
      body: { description: '<p><br></p>' },
    });
    expect(res.body.description).toBe('');
  });
});
