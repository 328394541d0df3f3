import { api } from '@/api/api';
import type { LoginRequest, LoginResponse, SocialLoginRequest } from '@/api/types';
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

export interface RecoveryCodeRequest {
  cpfOrEmail: string;
}
export interface ValidateCodeRequest extends RecoveryCodeRequest {
  recoveryCode: string;
}
export interface ResetPasswordRequest extends ValidateCodeRequest {
  newPassword: string;
  recoveryData: string;
}
export interface CompleteRegisterRequest {
  completeRegister: string;
  password: string;
}

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
    requestRecoveryCode: build.mutation<unknown, RecoveryCodeRequest>({
      query: (body) => ({ url: 'session-professional/recovery-code', method: 'POST', body }),
    }),
    validateRecoveryCode: build.mutation<unknown, ValidateCodeRequest>({
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
