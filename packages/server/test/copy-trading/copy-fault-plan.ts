// What the copy SIGKILL test and its child process agree on: the accounts' API keys at the fake,
// each follower's copy amount and the leader's trade. Target of follower i = LEADER_SIZE ×
// copy amount / 1,000 USDT (the fake's balance, the leader's equity): 0.020, 0.021, … BTC.
export const COPY_SYMBOL = 'BTC/USDT:USDT';
export const LEADER_API_KEY = 'copy-leader';
export const LEADER_SIZE = 0.2;
export const LEADER_EQUITY = 1000;
export const followerApiKey = (index: number) => `copy-follower-${index}`;
export const copyAmountOf = (index: number) => 100 + 5 * index;
