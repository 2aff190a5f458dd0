import i18n from './index';
import { walletEn } from './locales/wallet.en';
import { walletZhCN } from './locales/wallet.zh-CN';

// The wallet area's texts (deposit, withdraw, profile settings, VIP, invitations, staff console)
// join the translations when one of those screens, or the /my sidebar, loads.
i18n.addResourceBundle('zh-CN', 'translation', walletZhCN, true, false);
i18n.addResourceBundle('en', 'translation', walletEn, true, false);
