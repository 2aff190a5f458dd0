import { type ReactNode, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { getAccessToken, hasSessionExpired, useIsLoggedIn } from '../api/tokens';

/** A route needing login, opened without an access token, goes to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const isLoggedIn = useIsLoggedIn();
  const location = useLocation();
  // A session that could not be renewed may reach here before the auth-lost handler's own
  // redirect: the login screen is told why all the same.
  if (!isLoggedIn) {
    return (
      <Navigate
        to="/login"
        replace
        state={{ from: location.pathname, sessionExpired: hasSessionExpired() }}
      />
    );
  }
  return children;
}

/**
 * A logged-in user opening /login or /register goes to /dashboard. Checked when the screen is
 * entered only, so the login screen can finish its own post-login flow (security check, prompt).
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const [hadTokenOnEntry] = useState(() => getAccessToken() !== null);
  if (hadTokenOnEntry) return <Navigate to="/dashboard" replace />;
  return children;
}
