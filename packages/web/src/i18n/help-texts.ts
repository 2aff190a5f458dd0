import i18n from './index';
import { helpEn } from './locales/help.en';
import { helpZhCN } from './locales/help.zh-CN';

// The help centre's texts join the translations when the help centre loads (this module is
// imported by its page only).
i18n.addResourceBundle('zh-CN', 'translation', helpZhCN, true, false);
i18n.addResourceBundle('en', 'translation', helpEn, true, false);
