import i18n from './index';
import { webhooksEn } from './locales/webhooks.en';
import { webhooksZhCN } from './locales/webhooks.zh-CN';

// The webhook trading texts join the translations when one of its screens loads.
i18n.addResourceBundle('zh-CN', 'translation', webhooksZhCN, true, false);
i18n.addResourceBundle('en', 'translation', webhooksEn, true, false);
