import type {
  AccountSecurity,
  ChangePasswordRequest,
  GoogleCodeRequest,
  LoginRequest,
  LoginResponse,
  MessageResponse,
  PhoneLoginRequest,
  PhoneRegisterRequest,
  Profile,
  RegisterRequest,
  RegisterResponse,
  ResetPasswordRequest,
  SendCodeRequest,
  SendCodeResponse,
  TwoFactorEnableResponse,
} from '@quantsquare/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from './client';
import { clearTokens, getRefreshToken, setTokens, useIsLoggedIn } from './tokens';

export const authKeys = {
  all: ['auth'] as const,
  profile: () => [...authKeys.all, 'profile'] as const,
  security: () => [...authKeys.all, 'account-security'] as const,
};

export const authApi = {
  sendCode: (body: SendCodeRequest) => api.post<SendCodeResponse>('/auth/send-code/', body),
  login: (body: LoginRequest) => api.post<LoginResponse>('/auth/login/', body),
  phoneLogin: (body: PhoneLoginRequest) => api.post<LoginResponse>('/auth/phone-login/', body),
  register: (body: RegisterRequest) => api.post<RegisterResponse>('/auth/register/', body),
  phoneRegister: (body: PhoneRegisterRequest) =>
    api.post<RegisterResponse>('/auth/phone-register/', body),
  resetPassword: (body: ResetPasswordRequest) =>
    api.post<MessageResponse>('/auth/reset-password/', body),
  logout: (refresh: string) => api.post<unknown>('/auth/logout/', { refresh }),
  profile: (signal?: AbortSignal) => api.get<Profile>('/auth/profile/', signal),
  accountSecurity: (signal?: AbortSignal) =>
    api.get<AccountSecurity>('/auth/account-security/', signal),
  changePassword: (body: ChangePasswordRequest) =>
    api.post<MessageResponse>('/auth/change-password/', body),
  enable2fa: () => api.post<TwoFactorEnableResponse>('/auth/2fa/enable/'),
  verify2fa: (body: GoogleCodeRequest) => api.post<MessageResponse>('/auth/2fa/verify/', body),
  disable2fa: (body: GoogleCodeRequest) => api.post<MessageResponse>('/auth/2fa/disable/', body),
};

export function useProfile() {
  const isLoggedIn = useIsLoggedIn();
  return useQuery({
    queryKey: authKeys.profile(),
    queryFn: ({ signal }) => authApi.profile(signal),
    enabled: isLoggedIn,
    staleTime: 30_000,
  });
}

export function useAccountSecurity() {
  return useQuery({
    queryKey: authKeys.security(),
    queryFn: ({ signal }) => authApi.accountSecurity(signal),
  });
}

export function useSendCode() {
  return useMutation({ mutationFn: authApi.sendCode });
}

/** Stores the new session and drops whatever an earlier session had cached. */
function useStartSession() {
  const queryClient = useQueryClient();
  return (answer: LoginResponse) => {
    queryClient.removeQueries({ queryKey: authKeys.all });
    setTokens(answer.access, answer.refresh);
  };
}

export function useLogin() {
  const startSession = useStartSession();
  return useMutation({
    mutationFn: (
      input: { mode: 'email'; body: LoginRequest } | { mode: 'phone'; body: PhoneLoginRequest },
    ) => (input.mode === 'email' ? authApi.login(input.body) : authApi.phoneLogin(input.body)),
    onSuccess: startSession,
  });
}

export function useRegister() {
  const startSession = useStartSession();
  return useMutation({
    mutationFn: (
      input:
        | { mode: 'email'; body: RegisterRequest }
        | { mode: 'phone'; body: PhoneRegisterRequest },
    ) =>
      input.mode === 'email' ? authApi.register(input.body) : authApi.phoneRegister(input.body),
    onSuccess: (answer) => {
      if (answer.auto_login) startSession(answer);
    },
  });
}

/**
 * Ends the session on this device at once (tokens and cached user data gone), then tells the
 * server in the background: leaving does not wait for, or depend on, the server's answer.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    const refresh = getRefreshToken();
    clearTokens();
    void queryClient.cancelQueries();
    queryClient.clear();
    // Revokes the session server-side; an unreachable server leaves it to expire.
    if (refresh) void authApi.logout(refresh).catch(() => undefined);
  }, [queryClient]);
}

/** A forgotten password: nothing is signed in; the user signs in with the new password. */
export function useResetPassword() {
  return useMutation({ mutationFn: authApi.resetPassword });
}

export function useChangePassword() {
  return useMutation({ mutationFn: authApi.changePassword });
}

export function useEnableTwoFactor() {
  return useMutation({ mutationFn: authApi.enable2fa });
}

function useTwoFactorChange(call: (body: GoogleCodeRequest) => Promise<MessageResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.all }),
  });
}

export function useVerifyTwoFactor() {
  return useTwoFactorChange(authApi.verify2fa);
}

export function useDisableTwoFactor() {
  return useTwoFactorChange(authApi.disable2fa);
}
