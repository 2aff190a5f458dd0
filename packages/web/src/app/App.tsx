import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { BrowserRouter, useNavigate } from 'react-router';
import { setAuthLostHandler } from '../api/client';
import { PreferencesProvider } from './preferences';
import { queryClient } from './query-client';
import { AppRoutes } from './router';

/** When the session cannot be renewed: forget cached user data and go to /login, saying so. */
function AuthLostRedirect() {
  const navigate = useNavigate();
  useEffect(() => {
    setAuthLostHandler(() => {
      queryClient.clear();
      // The login screen says why the user is there.
      navigate('/login', { replace: true, state: { sessionExpired: true } });
    });
    return () => setAuthLostHandler(null);
  }, [navigate]);
  return null;
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <PreferencesProvider>
        <BrowserRouter>
          <AuthLostRedirect />
          <AppRoutes />
        </BrowserRouter>
      </PreferencesProvider>
    </QueryClientProvider>
  );
}
