import { GlobalOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n';
import { HintTooltip } from '../../shared/ui/HintTooltip';
import { usePreferences } from '../preferences';
import { PopoverMenu } from './PopoverMenu';

export function LanguageSwitch() {
  const { t } = useTranslation();
  const { language, setLanguage } = usePreferences();
  const names: Record<Language, string> = {
    'zh-CN': t('nav.languageNames.zhCN'),
    en: t('nav.languageNames.en'),
  };
  return (
    <PopoverMenu
      items={(Object.keys(names) as Language[]).map((key) => ({
        key,
        isSelected: key === language,
        label: <span data-testid={`language-option-${key}`}>{names[key]}</span>,
      }))}
      onSelect={(key) => setLanguage(key as Language)}
    >
      <Button
        type="text"
        icon={<GlobalOutlined />}
        aria-label={t('nav.language')}
        data-testid="language-switch"
      >
        {t('nav.languageShortName')}
      </Button>
    </PopoverMenu>
  );
}

export function ThemeToggle() {
  const { t } = useTranslation();
  const { themeMode, toggleTheme } = usePreferences();
  const label = themeMode === 'dark' ? t('nav.themeToLight') : t('nav.themeToDark');
  return (
    <HintTooltip title={label}>
      <Button
        type="text"
        icon={themeMode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
        aria-label={label}
        onClick={toggleTheme}
        data-testid="theme-toggle"
        data-theme-mode={themeMode}
      />
    </HintTooltip>
  );
}
