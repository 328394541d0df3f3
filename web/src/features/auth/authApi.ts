import { api } from '@/api/api';
import type { LoginRequest, LoginResponse, Schemas, SocialLoginRequest } from '@/api/wire';
import { signedIn } from '@/state/sessionSlice';

type Started = {
  dispatch: (action: unknown) => unknown;
  queryFulfilled: Promise<{ data: LoginResponse }>;
};

const signInOnSuccess = async (_arg: unknown, { dispatch, queryFulfilled }: Started) => {
  try {
    const { data } = await queryFulfilled;
    dispatch(signedIn(data));
  } catch {
    // Reported by the base query.
  }
};

export type RecoveryCodeRequest = Schemas['RequestCodeBody'];
export type ValidateCodeRequest = Schemas['ValidateCodeBody'];
export type ResetPasswordRequest = Schemas['ResetBody'];
export type CompleteRegisterRequest = Schemas['CompleteRegisterBody'];
/** The answer of POST session-professional/recovery-code and validate-recovery-code. */
export type RecoveryAnswer = Schemas['Message'];

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
    requestRecoveryCode: build.mutation<RecoveryAnswer, RecoveryCodeRequest>({
      query: (body) => ({ url: 'session-professional/recovery-code', method: 'POST', body }),
    }),
    validateRecoveryCode: build.mutation<RecoveryAnswer, ValidateCodeRequest>({
      query: (body) => ({ url: 'session-professional/validate-recovery-code', method: 'POST', body }),
    }),
    resetPassword: build.mutation<LoginResponse, ResetPasswordRequest>({
      query: (body) => ({ url: 'session-professional/reset-password', method: 'POST', body }),
      onQueryStarted: signInOnSuccess,
    }),
    completeRegister: build.mutation<LoginResponse, CompleteRegisterRequest>({
      query: (body) => ({ url: 'no-auth/professional/complete-register', method: 'PUT', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          // After complete registration the role is not stored (spec 01 §3).
          dispatch(signedIn({ ...data, user: { ...data.user, Role: null } }));
        } catch {
          // Reported by the base query.
        }
      },
    }),
  }),
});

export const {
  useLoginMutation,
  useLoginSocialMediaMutation,
  useRequestRecoveryCodeMutation,
  useValidateRecoveryCodeMutation,
  useResetPasswordMutation,
  useCompleteRegisterMutation,
} = authApi;
