import type {
  AvatarDeleteResponse,
  AvatarUploadResponse,
  OwnProfile,
} from '@quantsquare/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authKeys } from './auth';
import { api } from './client';

// The signed-in user's own profile of the square (document 2 §2 profile settings, §7
// /strategy-square/profile/, upload-avatar, delete-avatar).

/** PUT /strategy-square/profile/ as the web sends it (only what the form changes). */
export interface ProfileUpdateBody {
  nickname?: string;
  bio?: string;
}

export const profileKeys = {
  all: ['own-profile'] as const,
  own: () => [...profileKeys.all, 'square'] as const,
};

export const profileApi = {
  own: (signal?: AbortSignal) => api.get<OwnProfile>('/strategy-square/profile/', signal),
  update: (body: ProfileUpdateBody) => api.put<OwnProfile>('/strategy-square/profile/', body),
  uploadAvatar: (file: File) => {
    const form = new FormData();
    form.append('avatar', file);
    return api.upload<AvatarUploadResponse>('/strategy-square/profile/upload-avatar/', form);
  },
  deleteAvatar: () => api.delete<AvatarDeleteResponse>('/strategy-square/profile/delete-avatar/'),
};

export function useOwnProfile() {
  return useQuery({
    queryKey: profileKeys.own(),
    queryFn: ({ signal }) => profileApi.own(signal),
  });
}

/** The nickname and avatar also show in the shell's user menu (the auth profile). */
function useProfileChanged() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: profileKeys.all }),
      queryClient.invalidateQueries({ queryKey: authKeys.profile() }),
    ]);
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  const changed = useProfileChanged();
  return useMutation({
    mutationFn: profileApi.update,
    onSuccess: (profile) => {
      queryClient.setQueryData(profileKeys.own(), profile);
      return changed();
    },
  });
}

export function useUploadAvatar() {
  const changed = useProfileChanged();
  return useMutation({ mutationFn: profileApi.uploadAvatar, onSuccess: changed });
}

export function useDeleteAvatar() {
  const changed = useProfileChanged();
  return useMutation({ mutationFn: profileApi.deleteAvatar, onSuccess: changed });
}
