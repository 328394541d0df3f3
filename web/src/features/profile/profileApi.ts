import { api } from '@/api/api';
import type { MyProfile, MyProfilePayload, MyProfileWritten } from './types';

// 'INFO' only: the hours and services (components/staff) have their own 'Profile' entry.
const INFO = { type: 'Profile', id: 'INFO' } as const;

export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMyProfile: build.query<MyProfile, void>({
      query: () => 'professional/my-profile',
      providesTags: [INFO],
    }),
    updateMyProfile: build.mutation<MyProfileWritten, MyProfilePayload>({
      query: (body) => ({ url: 'professional/my-profile', method: 'PUT', body }),
      // The agenda lists professionals by name.
      invalidatesTags: [INFO, { type: 'Professional', id: 'LIST' }],
    }),
  }),
});

export const { useGetMyProfileQuery, useUpdateMyProfileMutation } = profileApi;
