import i18n from './index';
import { accountsEn } from './locales/accounts.en';
import { accountsZhCN } from './locales/accounts.zh-CN';

// The API management and account overview texts join the translations when one of those
// screens loads (this module is imported by their pages only).
i18n.addResourceBundle('zh-CN', 'translation', accountsZhCN, true, false);
i18n.addResourceBundle('en', 'translation', accountsEn, true, false);
