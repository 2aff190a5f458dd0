import i18n from './index';
import { botsEn } from './locales/bots.en';
import { botsZhCN } from './locales/bots.zh-CN';

// The bot area's texts join the translations when a signed-in user's dashboard loads that area
// (this module is imported by the lazy bot area only).
i18n.addResourceBundle('zh-CN', 'translation', botsZhCN, true, false);
i18n.addResourceBundle('en', 'translation', botsEn, true, false);
