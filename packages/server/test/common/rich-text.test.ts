import { describe, expect, it } from 'vitest';
import { sanitizeRichText, visibleLength } from '../../src/common/rich-text.js';

// What an attacker might store as a description or an announcement; none of it may survive.
const XSS_CORPUS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)><circle/></svg>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<iframe src="https://evil.example"></iframe>',
  '<p style="background:url(javascript:alert(1))" onclick="alert(1)">x</p>',
  '<style>body{display:none}</style>',
  '<div><p><b><i>unclosed <scr<script>ipt>alert(1)</script>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<img src="/api/uploads/help/../../secret.key">',
  '<img src="https://evil.example/track.png">',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<form action="https://evil.example"><input name="p"></form>',
];

describe('sanitizeRichText', () => {
  it.each(XSS_CORPUS)('leaves nothing executable of %s', (attack) => {
    for (const profile of ['description', 'announcement'] as const) {
      const clean = sanitizeRichText(attack, profile);
      expect(clean).not.toMatch(/<script|<iframe|<svg|<style|<object|<embed|<form|<input/i);
      expect(clean).not.toMatch(/\son\w+=/i);
      expect(clean).not.toMatch(/javascript:|data:/i);
      expect(clean).not.toMatch(/evil\.example|\.\.\//);
    }
  });

  it('keeps the editor formatting and makes links safe to open', () => {
    const html =
      '<h2>Plan</h2><p><strong>bold</strong> <em>it</em> <u>u</u> <a href="https://example.com">site</a></p><ol><li data-list="bullet">one</li></ol>';
    expect(sanitizeRichText(html, 'description')).toBe(
      '<h2>Plan</h2><p><strong>bold</strong> <em>it</em> <u>u</u> <a href="https://example.com" rel="noopener noreferrer" target="_blank">site</a></p><ol><li data-list="bullet">one</li></ol>',
    );
    expect(
      sanitizeRichText('<a href="mailto:a@b.c">m</a><a href="tel:+1">t</a>', 'description'),
    ).toContain('href="mailto:a@b.c"');
  });

  it('keeps images only in announcements and only from our uploads', () => {
    const image = '<p><img src="/api/uploads/help/0123456789abcdef0123456789abcdef.png"></p>';
    expect(sanitizeRichText(image, 'announcement')).toContain('<img src="/api/uploads/help/');
    expect(sanitizeRichText(image, 'description')).toBe('<p></p>');
  });

  it('keeps only uploads named as the image store names them', () => {
    for (const src of [
      '/api/uploads/help/%2e%2e/%2e%2e/auth/profile/',
      '/api/uploads/help/0123456789abcdef0123456789abcdef.png?x=1',
      '/api/uploads/help/0123456789abcdef0123456789abcdef.svg',
      '/api/uploads/help/short.png',
    ]) {
      expect(sanitizeRichText(`<p><img src="${src}"></p>`, 'announcement')).toBe('<p></p>');
    }
  });

  it('drops NUL characters, which the database cannot store', () => {
    expect(sanitizeRichText('<p>a\u0000b<scr\u0000ipt></p>', 'announcement')).toBe('<p>ab</p>');
  });

  it('counts what a reader sees', () => {
    expect(visibleLength('<p><b>a&amp;b</b></p><p>中文</p>')).toBe(5);
  });
});
