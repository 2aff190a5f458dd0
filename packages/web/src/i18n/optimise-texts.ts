import i18n from './index';
import { optimiseEn } from './locales/optimise.en';
import { optimiseZhCN } from './locales/optimise.zh-CN';

// The optimisation screen's texts join the translations when that screen loads.
i18n.addResourceBundle('zh-CN', 'translation', optimiseZhCN, true, false);
i18n.addResourceBundle('en', 'translation', optimiseEn, true, false);
