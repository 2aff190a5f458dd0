import 'i18next';
import type { accountsZhCN } from './locales/accounts.zh-CN';
import type { botsZhCN } from './locales/bots.zh-CN';
import type { builderZhCN } from './locales/builder.zh-CN';
import type { copyZhCN } from './locales/copy.zh-CN';
import type { fieldErrorsZhCN } from './locales/field-errors.zh-CN';
import type { helpZhCN } from './locales/help.zh-CN';
import type { notificationsZhCN } from './locales/notifications.zh-CN';
import type { optimiseZhCN } from './locales/optimise.zh-CN';
import type { squareZhCN } from './locales/square.zh-CN';
import type { walletZhCN } from './locales/wallet.zh-CN';
import type { webhooksZhCN } from './locales/webhooks.zh-CN';
import type { zhCN } from './locales/zh-CN';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // Screen bundles (added to `translation` when their screen loads) are typed with the rest.
    resources: {
      translation: typeof zhCN &
        typeof accountsZhCN &
        typeof botsZhCN &
        typeof helpZhCN &
        typeof walletZhCN &
        typeof fieldErrorsZhCN &
        typeof squareZhCN &
        typeof webhooksZhCN &
        typeof copyZhCN &
        typeof builderZhCN &
        typeof notificationsZhCN &
        typeof optimiseZhCN;
    };
  }
}
