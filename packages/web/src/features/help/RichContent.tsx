import { RICH_TEXT_LINK_SCHEMES, UPLOADED_IMAGE_URL } from '@quantsquare/contracts';
import { createElement, Fragment, type ReactNode, useMemo } from 'react';

// Announcement HTML is sanitised by the server; the page still never hands it to innerHTML.
// It is parsed into an inert document (DOMParser runs no script and loads nothing) and rebuilt
// as React elements from the editor's allowlist, so even a stored payload that slipped past the
// server would render as text at worst.

const ELEMENTS = new Set([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'h1',
  'h2',
  'h3',
  'ol',
  'ul',
  'li',
  'a',
  'img',
]);
/** Elements dropped with everything inside them. */
const DROPPED = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'textarea',
  'select',
  'head',
]);
const CLASS_PATTERN = /^ql-(indent-[1-8]|align-(center|right|justify))$/;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

function safeHref(href: string | null): string | undefined {
  if (!href) return undefined;
  const scheme = SCHEME.exec(href.trim())?.[1]?.toLowerCase();
  return scheme && (RICH_TEXT_LINK_SCHEMES as readonly string[]).includes(scheme)
    ? href.trim()
    : undefined;
}

function classesOf(element: Element): string | undefined {
  const kept = [...element.classList].filter((name) => CLASS_PATTERN.test(name));
  return kept.length > 0 ? kept.join(' ') : undefined;
}

function render(node: Node, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  if (DROPPED.has(tag)) return null;
  const children = [...element.childNodes].map(render);
  if (!ELEMENTS.has(tag)) return createElement(Fragment, { key }, ...children);

  switch (tag) {
    case 'br':
      return createElement('br', { key });
    case 'img': {
      const src = element.getAttribute('src') ?? '';
      if (!UPLOADED_IMAGE_URL.test(src)) return null;
      return createElement('img', {
        key,
        src,
        alt: element.getAttribute('alt') ?? '',
        loading: 'lazy',
        referrerPolicy: 'no-referrer',
      });
    }
    case 'a': {
      const href = safeHref(element.getAttribute('href'));
      if (!href) return createElement(Fragment, { key }, ...children);
      return createElement(
        'a',
        { key, href, target: '_blank', rel: 'noopener noreferrer nofollow' },
        ...children,
      );
    }
    case 'li': {
      const list = element.getAttribute('data-list');
      return createElement(
        'li',
        {
          key,
          className: classesOf(element),
          'data-list': list === 'bullet' || list === 'ordered' ? list : undefined,
        },
        ...children,
      );
    }
    default:
      return createElement(tag, { key, className: classesOf(element) }, ...children);
  }
}

/** The announcement's HTML as React elements of the editor's allowlist. */
export function RichContent({ html, testId }: { html: string; testId?: string }) {
  const content = useMemo(() => {
    const document = new DOMParser().parseFromString(html, 'text/html');
    return [...document.body.childNodes].map(render);
  }, [html]);
  return (
    <div className="qs-rich-content" data-testid={testId}>
      {content}
    </div>
  );
}
