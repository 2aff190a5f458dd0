import type { Locale } from 'antd/es/locale';
import antdZhCN from 'antd/es/locale/zh_CN';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { zhCN } from './locales/zh-CN';

export const LANGUAGES = ['zh-CN', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';
const LANGUAGE_STORAGE_KEY = 'qs.language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function readStoredLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export function storeLanguage(language: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this tab only.
  }
}

// Only the default language's core texts ship with the first screen; English's (and antd's
// English locale) are fetched when English is chosen, or before the first render when it was
// chosen on an earlier visit (`loadLanguage`). Screens' own bundles carry both languages.
const antdLocales: Partial<Record<Language, Locale>> = { 'zh-CN': antdZhCN };
let loadingEnglish: Promise<void> | undefined;

/** antd's texts for a language once `loadLanguage` has fetched them (zh-CN always). */
export function antdLocaleOf(language: Language): Locale {
  return antdLocales[language] ?? antdZhCN;
}

/** Fetches a language's core texts and antd locale, once. */
export function loadLanguage(language: Language): Promise<void> {
  if (language !== 'en') return Promise.resolve();
  loadingEnglish ??= Promise.all([import('./locales/en'), import('antd/es/locale/en_US')]).then(
    ([{ en }, antdEn]) => {
      // Deep, without overwriting: a screen's bundle may have added its English texts already.
      i18n.addResourceBundle('en', 'translation', en, true, false);
      antdLocales.en = antdEn.default;
    },
    (error: unknown) => {
      loadingEnglish = undefined; // tried again on the next choice
      throw error;
    },
  );
  return loadingEnglish;
}

/** Switches the language after its texts are there, so no screen shows the fallback first. */
export async function changeLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  await i18n.changeLanguage(language);
}

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN } },
  lng: readStoredLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
});

export default i18n;
