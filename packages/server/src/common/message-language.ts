/** The languages of what the server writes to people directly (e-mails, SMS). */
export const MESSAGE_LANGUAGES = ['zh-CN', 'en'] as const;
export type MessageLanguage = (typeof MESSAGE_LANGUAGES)[number];

/** The product's language when a request names none (the web's default too). */
export const DEFAULT_MESSAGE_LANGUAGE: MessageLanguage = 'zh-CN';

/**
 * The language to write in, from a request's Accept-Language (the web sends the language the
 * reader chose): the first tag we speak, by the header's order and weights; else the default.
 */
export function messageLanguageOf(acceptLanguage: string | string[] | undefined): MessageLanguage {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : (acceptLanguage ?? '');
  const tags = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = weight ? Number(weight.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of tags) {
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return DEFAULT_MESSAGE_LANGUAGE;
}
