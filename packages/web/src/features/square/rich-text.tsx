import { createElement, type ReactNode } from 'react';

// The strategy description is sanitised by the server with the editor's allowlist before it is
// stored. The page does not insert that HTML as markup: it parses it in an inert document
// (nothing there loads or runs) and rebuilds only the editor's elements as React elements, so
// even a description that escaped the server's rule renders as plain, inert content.

const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'ol',
  'ul',
  'li',
  'a',
  'h1',
  'h2',
  'h3',
]);
/** Dropped with everything inside them; any other unknown element keeps only its text. */
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'textarea',
  'option',
  'noscript',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'template',
  'title',
  'head',
]);
const QUILL_CLASS = /^ql-(indent-[1-8]|align-(center|right|justify))$/;
const LINK_SCHEME = /^(https?:|mailto:|tel:)/i;
const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

function propsOf(element: Element, key: number): Record<string, string | number> {
  const tag = element.tagName.toLowerCase();
  const props: Record<string, string | number> = { key };
  const classes = [...element.classList].filter((c) => QUILL_CLASS.test(c));
  if (classes.length > 0) props.className = classes.join(' ');
  if (tag === 'a') {
    const href = (element.getAttribute('href') ?? '').trim();
    if (LINK_SCHEME.test(href)) props.href = href;
    props.rel = 'noopener noreferrer';
    props.target = '_blank';
  }
  const list = element.getAttribute('data-list');
  if (tag === 'li' && (list === 'bullet' || list === 'ordered')) props['data-list'] = list;
  return props;
}

function toNodes(parent: Node): ReactNode[] {
  const nodes: ReactNode[] = [];
  parent.childNodes.forEach((child, index) => {
    if (child.nodeType === TEXT_NODE) {
      nodes.push(child.textContent ?? '');
      return;
    }
    if (child.nodeType !== ELEMENT_NODE) return;
    const element = child as Element;
    const tag = element.tagName.toLowerCase();
    if (DROPPED_WITH_CONTENT.has(tag)) return;
    const children = toNodes(element);
    if (!ALLOWED_TAGS.has(tag)) {
      nodes.push(...children);
      return;
    }
    const props = propsOf(element, index);
    nodes.push(tag === 'br' ? createElement(tag, props) : createElement(tag, props, ...children));
  });
  return nodes;
}

/** The description as React nodes: the editor's tags only, links http, https, mailto, tel. */
export function descriptionNodes(html: string): ReactNode[] {
  const document = new DOMParser().parseFromString(html, 'text/html');
  return toNodes(document.body);
}

/** Whether the description shows any text (an editor's empty "<p><br></p>" does not). */
export function hasVisibleText(html: string): boolean {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() !== '';
}
