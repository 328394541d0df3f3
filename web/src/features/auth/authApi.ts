import { api } from '@/api/api';
import type { LoginRequest, LoginResponse, SocialLoginRequest } from '@/api/types';
import { signedIn } from '@/state/sessionSlice';

const signInOnSuccess = async (
  _arg: unknown,
  { dispatch, queryFulfilled }: { dispatch: (action: unknown) => unknown; queryFulfilled: Promise<{ data: LoginResponse }> },
) => {
  try {
    const { data } = await queryFulfilled;
    dispatch(signedIn(data));
  } catch {
    // Reported by the base query.
  }
};

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginRequest>({
      query: (body) => ({ url: 'session-professional/login', method: 'POST', body }),
      onQueryStarted: signInOnSuccess,
    }),
    loginSocialMedia: build.mutation<LoginResponse, SocialLoginRequest>({
      query: (body) => ({ url: 'session-professional/login-social-media', method: 'POST', body }),
      onQueryStarted: signInOnSuccess,
    }),
  }),
});

export const { useLoginMutation, useLoginSocialMediaMutation } = authApi;
