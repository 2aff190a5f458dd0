import { UPLOADED_IMAGE_URL } from '@quantsquare/contracts';
import sanitizeHtml from 'sanitize-html';

// Every stored rich text (strategy descriptions, announcements) passes here on the server, with
// the allowlist of the editor that wrote it. Whatever a client sends, only these survive.

/** Where our uploaded images are served; the only image source an announcement may use. */
export const UPLOADS_URL_PREFIX = '/api/uploads/';

export type RichTextProfile =
  /** The strategy description editor's basic toolbar. */
  | 'description'
  /** The announcement editor: headers 1–3, marks, links, lists and our uploaded images. */
  | 'announcement';

const LINK_SCHEMES = ['http', 'https', 'mailto', 'tel'];

/** Whether `src` names one of our stored images (the only image source rich text may use). */
export function isUploadedImageUrl(src: string): boolean {
  return src.startsWith(UPLOADS_URL_PREFIX) && UPLOADED_IMAGE_URL.test(src);
}

// Quill 2 writes both list kinds as <ol><li data-list="bullet|ordered">, indents and alignment
// as classes.
const QUILL_CLASSES = [
  'ql-indent-1',
  'ql-indent-2',
  'ql-indent-3',
  'ql-indent-4',
  'ql-indent-5',
  'ql-indent-6',
  'ql-indent-7',
  'ql-indent-8',
  'ql-align-center',
  'ql-align-right',
  'ql-align-justify',
];
const TEXT_TAGS = ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'ol', 'ul', 'li', 'a'];

function options(profile: RichTextProfile): sanitizeHtml.IOptions {
  const isAnnouncement = profile === 'announcement';
  return {
    allowedTags: [...TEXT_TAGS, 'h1', 'h2', 'h3', ...(isAnnouncement ? ['img'] : [])],
    allowedAttributes: {
      a: ['href', 'rel', 'target'],
      li: ['data-list'],
      img: ['src', 'alt', 'width', 'height'],
    },
    allowedClasses: {
      p: QUILL_CLASSES,
      li: QUILL_CLASSES,
      h1: QUILL_CLASSES,
      h2: QUILL_CLASSES,
      h3: QUILL_CLASSES,
    },
    allowedSchemes: LINK_SCHEMES,
    allowedSchemesByTag: { img: [] },
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    // Script, style and the like go with their content, not just their tags.
    nonTextTags: [
      'script',
      'style',
      'textarea',
      'option',
      'noscript',
      'iframe',
      'object',
      'svg',
      'math',
      'template',
    ],
    transformTags: {
      a: (tagName, attribs) => ({
        tagName,
        attribs: { ...attribs, rel: 'noopener noreferrer', target: '_blank' },
      }),
    },
    // An image stays only when it is one of our uploads.
    exclusiveFilter: (frame) => frame.tag === 'img' && !isUploadedImageUrl(frame.attribs.src ?? ''),
  };
}

/** The HTML with only what `profile` allows (attributes, schemes and image sources included). */
export function sanitizeRichText(html: string, profile: RichTextProfile): string {
  // NUL cannot be stored in a PostgreSQL text column (and has no business in text anyway).
  const clean = sanitizeHtml(html.replaceAll('\u0000', ''), options(profile));
  // data-list may only name Quill's two list kinds.
  return clean.replace(/ data-list="(?!bullet"|ordered")[^"]*"/g, '');
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&nbsp;': ' ',
};

/** What a reader sees of the HTML, as text (the editors' character counters count this). */
export function visibleText(html: string): string {
  const text = sanitizeHtml(html, {
    allowedTags: [],
    allowedAttributes: {},
    nonTextTags: ['script', 'style', 'textarea', 'noscript'],
  });
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** Visible characters (code points) of the HTML. */
export function visibleLength(html: string): number {
  return [...visibleText(html)].length;
}
