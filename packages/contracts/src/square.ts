// The strategy square (document 2 §2 square, detail, public profile, §3, §4, §7, §8, §9) and the
// share settings of an exchange account (document 1 §3 Share settings, §4 Share toggle, §7, §8).
// A "strategy" is a published exchange account: its id IS the exchange account id.
// The contract lives in square/: constants, share settings, the listing, the detail, social.
export * from './square/constants.js';
export * from './square/detail.js';
export * from './square/listing.js';
export * from './square/share-settings.js';
export * from './square/social.js';
