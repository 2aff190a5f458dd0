import { ConfigProvider, theme } from 'antd';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { antdLocaleOf, changeLanguage, type Language, storeLanguage } from '../i18n';
import { useMediaQuery } from '../shared/ui/use-media-query';

export type ThemeMode = 'dark' | 'light';
const THEME_STORAGE_KEY = 'qs.theme';

function readStoredTheme(): ThemeMode {
  try {
    return localStorage.getItem(THEME_STORAGE_KEY) === 'light' ? 'light' : 'dark';
  } catch {
    return 'dark';
  }
}

interface Preferences {
  themeMode: ThemeMode;
  toggleTheme: () => void;
  language: Language;
  setLanguage: (language: Language) => void;
}

const PreferencesContext = createContext<Preferences | null>(null);

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

export function usePreferences(): Preferences {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error('usePreferences outside PreferencesProvider');
  return value;
}

/**
 * Theme (dark by default) and language, both remembered on the device; antd follows both, and
 * drops its animations where the device asks for reduced motion.
 */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const [themeMode, setThemeMode] = useState<ThemeMode>(readStoredTheme);
  const language: Language = i18n.language === 'en' ? 'en' : 'zh-CN';
  const reducedMotion = useMediaQuery(REDUCED_MOTION_QUERY);

  useEffect(() => {
    document.documentElement.dataset.theme = themeMode;
    document.documentElement.lang = language;
  }, [themeMode, language]);

  const value = useMemo<Preferences>(
    () => ({
      themeMode,
      toggleTheme: () =>
        setThemeMode((current) => {
          const next = current === 'dark' ? 'light' : 'dark';
          try {
            localStorage.setItem(THEME_STORAGE_KEY, next);
          } catch {
            // Not persisted when storage is unavailable.
          }
          return next;
        }),
      language,
      setLanguage: (next) => {
        storeLanguage(next);
        void changeLanguage(next);
      },
    }),
    [themeMode, language],
  );

  return (
    <PreferencesContext.Provider value={value}>
      <ConfigProvider
        locale={antdLocaleOf(language)}
        theme={{
          algorithm: themeMode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
          token: { colorPrimary: '#1668dc', borderRadius: 8, motion: !reducedMotion },
        }}
      >
        {children}
      </ConfigProvider>
    </PreferencesContext.Provider>
  );
}
