import i18n from './index';
import { notificationsEn } from './locales/notifications.en';
import { notificationsZhCN } from './locales/notifications.zh-CN';

// The notifications' texts join the translations when the bell (signed-in header) or the
// settings card loads.
i18n.addResourceBundle('zh-CN', 'translation', notificationsZhCN, true, false);
i18n.addResourceBundle('en', 'translation', notificationsEn, true, false);
