import i18n from './index';
import { builderEn } from './locales/builder.en';
import { builderZhCN } from './locales/builder.zh-CN';

// The strategy builder's texts join the translations when a screen that uses them loads.
i18n.addResourceBundle('zh-CN', 'translation', builderZhCN, true, false);
i18n.addResourceBundle('en', 'translation', builderEn, true, false);
