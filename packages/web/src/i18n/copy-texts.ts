import i18n from './index';
import { copyEn } from './locales/copy.en';
import { copyZhCN } from './locales/copy.zh-CN';

// Copy-trading texts join the translations when the copy modal or a copy screen loads.
i18n.addResourceBundle('zh-CN', 'translation', copyZhCN, true, false);
i18n.addResourceBundle('en', 'translation', copyEn, true, false);
