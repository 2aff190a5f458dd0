import i18n from './index';
import { squareEn } from './locales/square.en';
import { squareZhCN } from './locales/square.zh-CN';

// The strategy square, strategy detail, public profile, sharing and publish texts join the
// translations when one of those screens (or the account overview's sharing controls) loads.
i18n.addResourceBundle('zh-CN', 'translation', squareZhCN, true, false);
i18n.addResourceBundle('en', 'translation', squareEn, true, false);
