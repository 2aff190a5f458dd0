// The application shell's navigation (document 2 §2 "Application shell"): which entries each
// menu has, in the spec's order, and where each one goes. Entries whose screens are still being
// built point at their routes all the same.

/** Height of the mobile bottom navigation (the page keeps this much room below it). */
export const MOBILE_NAV_HEIGHT_PX = 56;

export type NavKey =
  | 'home'
  | 'strategySquare'
  | 'managementCenter'
  | 'helpCenter'
  | 'deposit'
  | 'withdraw'
  | 'exchangeAccounts'
  | 'copyManagement'
  | 'apiManagement'
  | 'accountSecurity'
  | 'vip'
  | 'staffConsole'
  | 'createStrategy'
  | 'follow'
  | 'account'
  | 'signalTrading'
  | 'signalMonitoring'
  | 'apiOperationLog';

export interface NavEntry {
  key: NavKey;
  path: string;
  /** Shown only to signed-in users. */
  needsLogin?: boolean;
  /** Shown only to staff (`user.is_staff`). */
  staffOnly?: boolean;
}

export const PATHS = {
  home: '/dashboard',
  strategySquare: '/strategy-square',
  managementCenter: '/my/account',
  helpCenter: '/help-center',
  deposit: '/deposit',
  withdraw: '/withdraw',
  exchangeAccounts: '/my/account',
  copyManagement: '/my/copy-trading',
  apiManagement: '/my/api-management',
  accountSecurity: '/my/security',
  /** Document 2's "VIP invitation" page (profile, VIP, invitations, coin balance). */
  vip: '/my/profile',
  staffConsole: '/staff',
  createStrategy: '/my/strategies/create',
  follow: '/strategy-square',
  account: '/my/account',
  signalTrading: '/webhook-trading',
  signalMonitoring: '/webhook-trading/signals',
  /** The bots' operation log on the dashboard (the webhook log is under signal monitoring). */
  apiOperationLog: '/dashboard#operation-log',
  login: '/login',
  register: '/register',
} as const satisfies Record<NavKey | 'login' | 'register', string>;

const entry = (key: NavKey, options: Omit<NavEntry, 'key' | 'path'> = {}): NavEntry => ({
  key,
  path: PATHS[key],
  ...options,
});

/** Desktop top navigation. */
export const TOP_NAV: readonly NavEntry[] = [
  entry('home'),
  entry('strategySquare'),
  entry('managementCenter', { needsLogin: true }),
  entry('helpCenter'),
];

/** The desktop user menu (logout follows these). */
export const USER_MENU: readonly NavEntry[] = [
  entry('deposit'),
  entry('withdraw'),
  entry('exchangeAccounts'),
  entry('copyManagement'),
  entry('apiManagement'),
  entry('accountSecurity'),
  entry('vip'),
  entry('staffConsole', { staffOnly: true }),
];

/** The mobile centre '+' quick actions. */
export const QUICK_ACTIONS: readonly NavEntry[] = [
  entry('createStrategy'),
  entry('follow'),
  entry('deposit'),
  entry('withdraw'),
];

/** The signed-in user's mobile menu (logout follows these). */
export const MOBILE_MENU: readonly NavEntry[] = [
  entry('deposit'),
  entry('withdraw'),
  entry('account'),
  entry('copyManagement'),
  entry('signalTrading'),
  entry('signalMonitoring'),
  entry('apiOperationLog'),
  entry('staffConsole', { staffOnly: true }),
];

/** The entries a user sees: login-only ones when signed in, staff ones for staff. */
export function visibleEntries(
  entries: readonly NavEntry[],
  viewer: { isLoggedIn: boolean; isStaff: boolean },
): NavEntry[] {
  return entries.filter(
    (e) => (!e.needsLogin || viewer.isLoggedIn) && (!e.staffOnly || viewer.isStaff),
  );
}

/** Whether `pathname` is inside the entry's area (the management centre covers all of /my). */
export function isActive(entry: NavEntry, pathname: string): boolean {
  if (entry.key === 'managementCenter') {
    // The webhook screens sit in the management centre's layout.
    return (
      pathname === '/my' ||
      pathname.startsWith('/my/') ||
      pathname === PATHS.signalTrading ||
      pathname.startsWith(`${PATHS.signalTrading}/`)
    );
  }
  if (entry.key === 'strategySquare') {
    return pathname === entry.path || pathname.startsWith('/strategy/');
  }
  return pathname === entry.path || pathname.startsWith(`${entry.path}/`);
}
