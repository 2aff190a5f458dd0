import { createHmac } from 'node:crypto';
import {
  type Announcement,
  type AnnouncementList,
  type AnnouncementListQuery,
  type AnnouncementType,
  FIELD_ERROR_CODES,
  HELP_IMAGE_MAX_SIDE_PX,
  HELP_MESSAGES,
  type HelpContact,
  type HelpImageUpload,
  type MarkReadResponse,
  type UnreadCount,
} from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import { NotFound, ValidationFailed } from '../../common/errors.js';
import { sanitizeRichText, visibleText } from '../../common/rich-text.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { EventBus } from '../../events/index.js';
import type { Outbox, OutboxEvent } from '../../events/outbox.js';
import { type ImageStore, UnsupportedImage } from '../../uploads/image-store.js';
import type { AnnouncementRecord, HelpRepository } from './help.repository.js';

/** Shown as the author when the staff member set no nickname (or no longer exists). */
export const ANNOUNCEMENT_AUTHOR_FALLBACK = 'QuantSquare';

const UTC8_OFFSET_MS = 8 * 60 * 60 * 1000;

/** The product's calendar day (UTC+8) of `at`, as YYYY-MM-DD. */
export function utc8Day(at: Date): string {
  return new Date(at.getTime() + UTC8_OFFSET_MS).toISOString().slice(0, 10);
}

/** Who is reading: a signed-in user, or a visitor known only by their network address. */
export interface Reader {
  readonly userId?: number;
  readonly address: string;
}

/** The four fields an announcement is written with (already trimmed by the contract). */
export interface AnnouncementInput {
  readonly title: string;
  readonly summary: string;
  readonly type: AnnouncementType;
  readonly content: string;
}

export interface HelpLogger {
  error(details: object, message: string): void;
}

const UPLOADED_IMAGE = /\/api\/uploads\/[a-z]+\/[a-f0-9]{32}\.[a-z]+/g;
const imagesIn = (html: string): Set<string> => new Set(html.match(UPLOADED_IMAGE) ?? []);

function toAnnouncement(record: AnnouncementRecord): Announcement {
  const { announcement: a } = record;
  return {
    id: a.id,
    title: a.title,
    summary: a.summary,
    type: a.type,
    content: a.content,
    author_name: record.authorNickname?.trim() || ANNOUNCEMENT_AUTHOR_FALLBACK,
    views: a.views,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
    is_new: record.isNew,
  };
}

/** A reader as view counting keeps them: the user, or a keyed hash of a visitor's address. */
const readerKey = (secret: string, reader: Reader): string =>
  reader.userId !== undefined
    ? `u:${reader.userId}`
    : `v:${createHmac('sha256', secret).update(`announcement-view:${reader.address}`).digest('base64url').slice(0, 32)}`;

/** Sanitised content, refused when nothing a reader would see is left. */
function cleanContent(html: string): string {
  const clean = sanitizeRichText(html, 'announcement');
  if (visibleText(clean).trim() === '' && imagesIn(clean).size === 0) {
    throw ValidationFailed.field(
      'content',
      HELP_MESSAGES.contentRequired,
      FIELD_ERROR_CODES.required,
    );
  }
  return clean;
}

/** An announcement as a reader sees it; not found when it is not there. */
async function record(
  repo: HelpRepository,
  id: number,
  readerId?: number,
): Promise<AnnouncementRecord> {
  const found = await repo.findRecord(id, readerId);
  if (!found) throw new NotFound(HELP_MESSAGES.notFound);
  return found;
}

/** Removes the editor images `before` showed that no announcement shows any more. */
async function dropUnusedImages(
  deps: Pick<HelpServiceDeps, 'repo' | 'images' | 'log'>,
  before: string,
  after: string,
): Promise<void> {
  const { repo, images, log } = deps;
  const kept = imagesIn(after);
  for (const url of imagesIn(before)) {
    if (kept.has(url) || !images.isOwnUrl(url, 'help')) continue;
    try {
      if (!(await repo.isImageUsed(url))) await images.remove(url);
    } catch (error) {
      log.error({ err: error, url }, 'removing an unused announcement image failed');
    }
  }
}

/** Publishes: stored, read by its author, announced to open pages. */
async function publishAnnouncement(
  deps: HelpServiceDeps,
  authorId: number,
  input: AnnouncementInput,
): Promise<Announcement> {
  const { repo, clock, eventBus, log } = deps;
  const now = clock.now();
  const content = cleanContent(input.content);
  const publications = deps.publications;
  const write = async (target: HelpRepository, tx?: Database) => {
    const inserted = await target.insert({
      title: input.title,
      summary: input.summary,
      type: input.type,
      content,
      authorId,
      createdAt: now,
      updatedAt: now,
    });
    await target.markRead(inserted.id, authorId, now);
    const event: OutboxEvent<'AnnouncementPublished'> = {
      type: 'AnnouncementPublished',
      id: `announcement-published-${inserted.id}`,
      payload: { announcementId: inserted.id, title: inserted.title, type: inserted.type },
    };
    if (tx && publications) await publications.outbox.write(tx, [event]);
    return { row: inserted, event };
  };
  const { row, event } = publications
    ? await publications.inTransaction((txRepo, tx) => write(txRepo, tx))
    : await write(repo);
  try {
    if (publications) await publications.outbox.publish(eventBus, [event]);
    else await eventBus.publish(event.type, event.payload, event.id);
  } catch (error) {
    // Open pages still learn of it by polling the unread count.
    log.error({ err: error, announcementId: row.id }, 'publishing AnnouncementPublished failed');
  }
  return toAnnouncement(await record(repo, row.id, authorId));
}

/** An editor image: type decided by its bytes, re-encoded, stored under the help folder. */
async function uploadHelpImage(images: ImageStore, bytes: Buffer): Promise<HelpImageUpload> {
  try {
    const saved = await images.save(bytes, {
      folder: 'help',
      accept: ['png', 'gif', 'jpeg', 'bmp', 'ico'],
      maxSidePx: HELP_IMAGE_MAX_SIDE_PX,
    });
    return { url: saved.url, width: saved.width, height: saved.height };
  } catch (error) {
    if (error instanceof UnsupportedImage) {
      throw ValidationFailed.field(
        'image',
        HELP_MESSAGES.imageUnsupported,
        FIELD_ERROR_CODES.unsupportedFormat,
      );
    }
    throw error;
  }
}

/** What the help service works with. */
export interface HelpServiceDeps {
  repo: HelpRepository;
  clock: Clock;
  images: ImageStore;
  eventBus: EventBus;
  /** Keys the hash under which visitors' addresses are kept for view counting. */
  readerSecret: string;
  contact: Config['contact'];
  log: HelpLogger;
  /**
   * The announcement and its AnnouncementPublished event in one transaction (the notifications
   * read the outbox); without it the event is only published.
   */
  publications?: {
    inTransaction: <T>(work: (repo: HelpRepository, tx: Database) => Promise<T>) => Promise<T>;
    outbox: Outbox;
  };
}

/** Announcements (list, read, write, read marks, views), editor images and contact details. */
export function createHelpService(deps: HelpServiceDeps) {
  const { repo, clock, images } = deps;
  let prunedBefore = '';

  return {
    create: (authorId: number, input: AnnouncementInput) =>
      publishAnnouncement(deps, authorId, input),
    uploadImage: (bytes: Buffer) => uploadHelpImage(images, bytes),

    async list(query: AnnouncementListQuery, readerId?: number): Promise<AnnouncementList> {
      const { rows, total } = await repo.page(
        { offset: (query.page - 1) * query.page_size, limit: query.page_size },
        readerId,
      );
      return {
        results: rows.map(toAnnouncement),
        count: total,
        page: query.page,
        page_size: query.page_size,
      };
    },

    /** One announcement; counts the reader's view once per day (UTC+8). */
    async get(id: number, reader: Reader): Promise<Announcement> {
      const day = utc8Day(clock.now());
      if (day > prunedBefore) {
        await repo.pruneViewsBefore(day);
        prunedBefore = day;
      }
      const views = await repo.recordView(id, readerKey(deps.readerSecret, reader), day);
      if (views === undefined) throw new NotFound(HELP_MESSAGES.notFound);
      return toAnnouncement(await record(repo, id, reader.userId));
    },

    async update(id: number, editorId: number, input: AnnouncementInput): Promise<Announcement> {
      const before = await repo.findById(id);
      if (!before) throw new NotFound(HELP_MESSAGES.notFound);
      const content = cleanContent(input.content);
      const row = await repo.update(
        id,
        { title: input.title, summary: input.summary, type: input.type, content },
        clock.now(),
      );
      if (!row) throw new NotFound(HELP_MESSAGES.notFound);
      await dropUnusedImages(deps, before.content, content);
      return toAnnouncement(await record(repo, id, editorId));
    },

    async remove(id: number): Promise<void> {
      const removed = await repo.delete(id);
      if (!removed) throw new NotFound(HELP_MESSAGES.notFound);
      await dropUnusedImages(deps, removed.content, '');
    },

    async markRead(id: number, userId: number): Promise<MarkReadResponse> {
      if (!(await repo.markRead(id, userId, clock.now()))) {
        throw new NotFound(HELP_MESSAGES.notFound);
      }
      return { id, is_new: false, unread_count: await repo.unreadCount(userId) };
    },

    async unreadCount(readerId?: number): Promise<UnreadCount> {
      return { count: readerId === undefined ? 0 : await repo.unreadCount(readerId) };
    },

    contact(): HelpContact {
      return {
        support_email: deps.contact.supportEmail,
        telegram_url: deps.contact.telegramUrl,
        x_url: deps.contact.xUrl,
        website_url: deps.contact.websiteUrl,
      };
    },
  };
}
export type HelpService = ReturnType<typeof createHelpService>;
