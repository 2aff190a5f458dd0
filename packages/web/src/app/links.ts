// Community links of the footer. The spec names Telegram and Twitter without addresses; these
// are the project's placeholders until the operators publish their real channels.
export const TELEGRAM_URL = 'https://t.me/quantsquare';
export const TWITTER_URL = 'https://x.com/quantsquare';
