import { z } from 'zod';

// Help centre and announcements (document 2 §2 "Help centre", §3 Announcement, §4, §5, §7
// "Help and announcements", §8, §9).

export const ANNOUNCEMENT_TYPES = ['normal', 'important', 'maintenance'] as const;
export type AnnouncementType = (typeof ANNOUNCEMENT_TYPES)[number];

export const ANNOUNCEMENT_PAGE_SIZE = 10;
/** The largest page a client may ask for. */
export const ANNOUNCEMENT_PAGE_SIZE_MAX = 50;
export const ANNOUNCEMENT_TITLE_MAX_LENGTH = 200;
export const ANNOUNCEMENT_SUMMARY_MAX_LENGTH = 500;
/** Characters of the editor's HTML (images are links to uploads, never inline data). */
export const ANNOUNCEMENT_CONTENT_MAX_LENGTH = 100_000;
/** The unread count is polled this often when the live connection is down (and as a backstop). */
export const ANNOUNCEMENT_UNREAD_POLL_MS = 60_000;
/** A closed live connection is opened again after this long. */
export const LIVE_RECONNECT_MS = 5_000;

/** The editor's image types (document 2 §9), decided by content on the server. */
export const HELP_IMAGE_MIME_TYPES = [
  'image/png',
  'image/gif',
  'image/jpeg',
  'image/bmp',
  'image/x-icon',
] as const;
export const HELP_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Stored editor images are scaled down so their longer side is at most this. */
export const HELP_IMAGE_MAX_SIDE_PX = 1920;
/**
 * An uploaded image's URL exactly as the server's image store names it: the only image source
 * rich text may use (anything looser, such as a query or an encoded `%2e%2e/`, could point an
 * image at another route).
 */
export const UPLOADED_IMAGE_URL = /^\/api\/uploads\/[a-z]+\/[a-f0-9]{32}\.(png|jpg|gif|webp)$/;
/** Link schemes the editor and the server keep. */
export const RICH_TEXT_LINK_SCHEMES = ['http', 'https', 'mailto', 'tel'] as const;

/** The websocket path that pushes new announcements to open pages. */
export const ANNOUNCEMENTS_SOCKET_PATH = '/ws/announcements';

export const HELP_MESSAGES = {
  contentRequired: 'Please enter the announcement content',
  titleRequired: 'Please enter a title',
  summaryRequired: 'Please enter a summary',
  notFound: 'Announcement not found',
  imageRequired: 'Choose an image to upload',
  imageUnsupported: 'Unsupported image: choose a PNG, GIF, JPEG, BMP or ICO file',
  imageTooLarge: 'The image is larger than 5 MB',
  uploadMalformed: 'The upload was cut off or malformed; try again',
} as const;

const requiredText = (max: number, message: string) =>
  z
    .string({ message })
    .trim()
    .min(1, { message })
    .max(max, { message: `At most ${max} characters` })
    // NUL cannot be stored (and never belongs in a title).
    .refine((text) => !text.includes('\u0000'), {
      message: 'Contains a character that is not allowed',
    });

/** POST and PUT /help/announcements/ (PUT replaces all four fields). */
export const announcementWriteRequest = z.strictObject({
  title: requiredText(ANNOUNCEMENT_TITLE_MAX_LENGTH, HELP_MESSAGES.titleRequired),
  summary: requiredText(ANNOUNCEMENT_SUMMARY_MAX_LENGTH, HELP_MESSAGES.summaryRequired),
  type: z.enum(ANNOUNCEMENT_TYPES).default('normal'),
  /** HTML from the editor; the server keeps only the editor's allowlist. */
  content: z
    .string({ message: HELP_MESSAGES.contentRequired })
    .max(ANNOUNCEMENT_CONTENT_MAX_LENGTH, {
      message: `At most ${ANNOUNCEMENT_CONTENT_MAX_LENGTH} characters`,
    }),
});
export type AnnouncementWriteRequest = z.input<typeof announcementWriteRequest>;

export const announcementListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(ANNOUNCEMENT_PAGE_SIZE_MAX)
    .default(ANNOUNCEMENT_PAGE_SIZE),
});
export type AnnouncementListQuery = z.infer<typeof announcementListQuery>;

export const announcement = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  type: z.enum(ANNOUNCEMENT_TYPES),
  /** Sanitised HTML. */
  content: z.string(),
  author_name: z.string(),
  views: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Unread by the signed-in reader; always false for visitors. */
  is_new: z.boolean(),
});
export type Announcement = z.infer<typeof announcement>;

export const announcementList = z.object({
  results: z.array(announcement),
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type AnnouncementList = z.infer<typeof announcementList>;

export const unreadCount = z.object({ count: z.number().int() });
export type UnreadCount = z.infer<typeof unreadCount>;

/** POST /help/announcements/{id}/mark-read/: the reader's new unread count comes with it. */
export const markReadResponse = z.object({
  id: z.number().int(),
  is_new: z.literal(false),
  unread_count: z.number().int(),
});
export type MarkReadResponse = z.infer<typeof markReadResponse>;

/** POST /help/upload-image/: where the editor's image is served. */
export const helpImageUpload = z.object({
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type HelpImageUpload = z.infer<typeof helpImageUpload>;

/** GET /help/contact/: the operators' channels, from the server's configuration. */
export const helpContact = z.object({
  support_email: z.string(),
  telegram_url: z.string(),
  x_url: z.string(),
  website_url: z.string(),
});
export type HelpContact = z.infer<typeof helpContact>;

/** A frame of the announcements websocket. */
export interface AnnouncementPublishedFrame {
  readonly type: 'announcement_published';
  readonly data: { readonly id: number; readonly title: string; readonly type: AnnouncementType };
}
