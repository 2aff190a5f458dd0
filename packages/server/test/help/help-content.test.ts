import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../helpers/auth-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';
import {
  type AnnouncementBody,
  pngBytes,
  publish,
  staffSession,
  uploadImage,
} from './help-flows.js';

const t = useTestApp();
let staff: Session;
let imageUrl: string;

beforeAll(async () => {
  staff = await staffSession(t);
  imageUrl = (await uploadImage(t.app, staff.access, await pngBytes())).body.url;
});

/** What an attacker might try to store in an announcement. */
const XSS_CORPUS = [
  '<img src=x onerror=alert(1)>',
  '<img src="/api/uploads/help/0123456789abcdef0123456789abcdef.png" onerror="alert(1)">',
  '<a href="javascript:alert(1)">click</a>',
  '<a href=" javascript:alert(1)">click</a>',
  '<a href="java&#x09;script:alert(1)">click</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">click</a>',
  '<a href="vbscript:msgbox(1)">click</a>',
  '<a href="data:text/html,<script>alert(1)</script>">click</a>',
  '<svg onload=alert(1)><circle r="1"/></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<script>alert(1)</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<p><b><i><u>nested <img src=x onerror=alert(1)></u></i></b></p>',
  '<div><p>unclosed <strong>bold <a href="javascript:alert(1)">x',
  '<p onclick="alert(1)" style="color:red">styled</p>',
  '<iframe src="https://evil.example/"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror=alert(1)></video>',
  '<body onload=alert(1)>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<style>*{background:url("javascript:alert(1)")}</style>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<img src="data:image/png;base64,iVBORw0KGgo=">',
  '<img src="https://evil.example/pixel.png">',
  '<img src="//evil.example/pixel.png">',
  '<img src="/api/uploads/help/%2e%2e/%2e%2e/auth/profile/">',
  '<img src="/api/uploads/help/../secret.key">',
  '<img src="/api/uploads/help/0123456789abcdef0123456789abcdef.png?x=1">',
  '<img srcset="https://evil.example/a.png 1x" src="x">',
  '<a href="https://example.com" onmouseover="alert(1)">hover</a>',
  '"><img src=x onerror=alert(1)>',
  '<h1 onclick=alert(1)>title</h1><h4>too deep</h4><h6>deeper</h6>',
  '<table><tr><td onclick=alert(1)>cell</td></tr></table>',
];

/** Nothing in `html` can run: no script-bearing element, handler, dangerous URL or foreign image. */
function expectInert(html: string) {
  expect(html).not.toMatch(
    /<(script|iframe|svg|math|style|object|embed|form|input|button|details|video|source|body|meta|base|link|table|td|noscript)\b/i,
  );
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/(javascript|vbscript|data):/i);
  expect(html).not.toMatch(/\sstyle\s*=|\ssrcset\s*=|\ssrcdoc\s*=/i);
  for (const [, src] of html.matchAll(/<img[^>]*\ssrc="([^"]*)"/g)) {
    expect(src).toMatch(/^\/api\/uploads\/help\/[a-f0-9]{32}\.(png|jpg|gif|webp)$/);
  }
  for (const [, href] of html.matchAll(/<a[^>]*\shref="([^"]*)"/g)) {
    expect(href).toMatch(/^(https?:|mailto:|tel:)/);
  }
}

describe('announcement content', () => {
  it.each(XSS_CORPUS)('stores %s inert', async (attack) => {
    const res = await call<AnnouncementBody>(t.app, 'POST', '/api/help/announcements/', {
      token: staff.access,
      body: {
        title: 'Notice',
        summary: 'Read me',
        type: 'normal',
        content: `<p>Visible text</p>${attack}`,
      },
    });
    expect(res.status).toBe(201);
    expectInert(res.body.content);
    const stored = await call<AnnouncementBody>(
      t.app,
      'GET',
      `/api/help/announcements/${res.body.id}/`,
    );
    expect(stored.body.content).toBe(res.body.content);
    expect(stored.body.content).toContain('<p>Visible text</p>');
  });

  it('sanitises an edit as it does a new announcement', async () => {
    const created = await publish(t.app, staff.access);
    const edited = await call<AnnouncementBody>(
      t.app,
      'PUT',
      `/api/help/announcements/${created.id}/`,
      {
        token: staff.access,
        body: {
          title: 'Edited',
          summary: 'Now with a payload',
          type: 'important',
          content: '<p>ok</p><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>',
        },
      },
    );
    expect(edited.status).toBe(200);
    expectInert(edited.body.content);
  });

  it('keeps what the editor makes: headers 1-3, marks, safe links, lists and our images', async () => {
    const content =
      '<h1>One</h1><h2>Two</h2><h3>Three</h3>' +
      '<p><strong>bold</strong> <em>italic</em> <u>under</u></p>' +
      '<p><a href="https://quantsquare.example/docs" target="_self">docs</a> ' +
      '<a href="mailto:support@quantsquare.example">mail</a> <a href="tel:+8613800000000">call</a></p>' +
      '<ol><li data-list="ordered">first</li><li data-list="bullet">point</li></ol>' +
      `<p><img src="${imageUrl}"></p>`;
    const created = await publish(t.app, staff.access, { content });
    expect(created.content).toBe(
      '<h1>One</h1><h2>Two</h2><h3>Three</h3>' +
        '<p><strong>bold</strong> <em>italic</em> <u>under</u></p>' +
        '<p><a href="https://quantsquare.example/docs" target="_blank" rel="noopener noreferrer">docs</a> ' +
        '<a href="mailto:support@quantsquare.example" rel="noopener noreferrer" target="_blank">mail</a> ' +
        '<a href="tel:+8613800000000" rel="noopener noreferrer" target="_blank">call</a></p>' +
        '<ol><li data-list="ordered">first</li><li data-list="bullet">point</li></ol>' +
        `<p><img src="${imageUrl}" /></p>`,
    );
  });

  it('accepts an announcement that is only an image', async () => {
    const created = await publish(t.app, staff.access, {
      content: `<p><img src="${imageUrl}"></p>`,
    });
    expect(created.content).toContain(imageUrl);
  });
});

describe('announcement validation', () => {
  const post = (body: Record<string, unknown>) =>
    call<{ code: string; fields?: Record<string, string[]> }>(
      t.app,
      'POST',
      '/api/help/announcements/',
      { token: staff.access, body },
    );
  const valid = { title: 'T', summary: 'S', type: 'normal', content: '<p>c</p>' };

  it.each([
    ['empty', ''],
    ['blank', '   \n\t '],
    ['an empty editor', '<p><br></p>'],
    ['empty paragraphs', '<p>  </p><p>&nbsp;</p>'],
    ['only a script', '<script>alert(1)</script>'],
    ['only a foreign image', '<img src="https://evil.example/x.png">'],
  ])('refuses %s content with the content message', async (_name, content) => {
    const res = await post({ ...valid, content });
    expect(res.status).toBe(400);
    expect(res.body.fields?.content).toEqual(['Please enter the announcement content']);
  });

  it.each([
    ['a missing title', { title: undefined }, 'title'],
    ['a blank title', { title: '   ' }, 'title'],
    ['a missing summary', { summary: undefined }, 'summary'],
    ['a blank summary', { summary: ' ' }, 'summary'],
    ['a title over 200 characters', { title: 'x'.repeat(201) }, 'title'],
    ['a summary over 500 characters', { summary: 'x'.repeat(501) }, 'summary'],
    ['a NUL in the title', { title: 'a\u0000b' }, 'title'],
    [
      'a NUL in the content',
      { content: '<p>\u0000<scr\u0000ipt>alert(1)</scr\u0000ipt></p>' },
      'content',
    ],
    ['an unknown type', { type: 'urgent' }, 'type'],
    ['a missing content', { content: undefined }, 'content'],
    ['content over 100,000 characters', { content: `<p>${'x'.repeat(100_000)}</p>` }, 'content'],
    ['an unknown field', { pinned: true }, 'pinned'],
  ])('refuses %s', async (_name, change, field) => {
    const res = await post({ ...valid, ...change });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(Object.keys(res.body.fields ?? {})).toContain(field);
  });

  it('defaults the type to normal and trims title and summary', async () => {
    const res = await call<AnnouncementBody>(t.app, 'POST', '/api/help/announcements/', {
      token: staff.access,
      body: { title: '  Padded  ', summary: ' s ', content: '<p>c</p>' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Padded', summary: 's', type: 'normal' });
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/help/announcements/',
      headers: { authorization: `Bearer ${staff.access}`, 'content-type': 'application/json' },
      payload: '{"title": ',
    });
    expect(res.statusCode).toBe(400);
  });

  it.each(['abc', '0', '-3', '1.5', '99999999999'])('answers 400 for the id %s', async (id) => {
    const res = await call(t.app, 'GET', `/api/help/announcements/${id}/`);
    expect(res.status).toBe(400);
  });
});
