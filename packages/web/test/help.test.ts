import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../src/api/client';
import { announcementsSocketUrl, helpApi, isAnnouncementPublished } from '../src/api/help';
import { setTokens } from '../src/api/tokens';
import { relativeTime } from '../src/features/help/relative-time';
import { MemoryStorage } from './memory-storage';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('announcement times', () => {
  it.each([
    ['now', 0, { unit: 'justNow' }],
    ['59 seconds ago', 59_000, { unit: 'justNow' }],
    ['a little in the future (clock skew)', -30_000, { unit: 'justNow' }],
    ['one minute ago', MINUTE, { unit: 'minutes', count: 1 }],
    ['59 minutes ago', 59 * MINUTE + 59_000, { unit: 'minutes', count: 59 }],
    ['one hour ago', HOUR, { unit: 'hours', count: 1 }],
    ['23 hours ago', 23 * HOUR + 59 * MINUTE, { unit: 'hours', count: 23 }],
    ['one day ago', DAY, { unit: 'days', count: 1 }],
    ['six days ago', 6 * DAY + 23 * HOUR, { unit: 'days', count: 6 }],
  ])('says %s as %o', (_name, elapsed, expected) => {
    expect(relativeTime(ago(elapsed), NOW)).toEqual(expected);
  });

  it('shows a zh-CN date from seven days on', () => {
    const at = ago(7 * DAY);
    expect(relativeTime(at, NOW)).toEqual({
      unit: 'date',
      text: new Date(at).toLocaleDateString('zh-CN'),
    });
    expect(relativeTime('2025-01-05T10:00:00Z', NOW)).toMatchObject({
      text: expect.stringMatching(/^2025\/1\/5$/),
    });
  });
});

describe('the announcements socket', () => {
  it('opens on the page’s own origin', () => {
    expect(announcementsSocketUrl({ protocol: 'https:', host: 'quant.example' })).toBe(
      'wss://quant.example/ws/announcements',
    );
    expect(announcementsSocketUrl({ protocol: 'http:', host: '127.0.0.1:8480' })).toBe(
      'ws://127.0.0.1:8480/ws/announcements',
    );
  });

  it('recognises only well-formed publication frames', () => {
    expect(
      isAnnouncementPublished({
        type: 'announcement_published',
        data: { id: 3, title: 'Maintenance', type: 'maintenance' },
      }),
    ).toBe(true);
    for (const frame of [
      null,
      'announcement_published',
      { type: 'pong' },
      { type: 'announcement_published' },
      { type: 'announcement_published', data: { id: '3', title: 'x' } },
    ]) {
      expect(isAnnouncementPublished(frame)).toBe(false);
    }
  });
});

describe('editor image uploads', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.stubGlobal('localStorage', new MemoryStorage());
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('posts the file as multipart field "image" with the bearer token and no JSON type', async () => {
    setTokens('a1', 'r1');
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ url: '/api/uploads/help/x.png', width: 1, height: 1 }), {
        status: 201,
      }),
    );
    const file = new File([new Uint8Array([1, 2, 3])], 'shot.bmp', { type: 'image/bmp' });
    const answer = await helpApi.uploadImage(file);
    expect(answer.url).toBe('/api/uploads/help/x.png');
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/help/upload-image/');
    expect(init.method).toBe('POST');
    const headers = init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer a1');
    expect(headers['Content-Type']).toBeUndefined();
    expect(init.body).toBeInstanceOf(FormData);
    expect((init.body as FormData).get('image')).toBeInstanceOf(File);
  });

  it('still sends JSON bodies as JSON', async () => {
    fetchMock.mockResolvedValueOnce(new Response('{}', { status: 200 }));
    await apiRequest('POST', '/help/announcements/1/mark-read/', { body: {} });
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{}');
  });
});
