import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useLogout } from '../../api/auth';
import { PATHS } from './nav-items';

/**
 * Logout from any menu: the session ends on this device first, then the login screen opens.
 * Nothing waits for the server or for the menu that was clicked (it unmounts with the session).
 */
export function useSignOut(): () => void {
  const logout = useLogout();
  const navigate = useNavigate();
  return useCallback(() => {
    logout();
    navigate(PATHS.login, { replace: true });
  }, [logout, navigate]);
}
