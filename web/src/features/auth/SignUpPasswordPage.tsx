import { yupResolver } from '@hookform/resolvers/yup';
import { useForm } from 'react-hook-form';
import { Navigate, useSearchParams } from 'react-router';
import { useAppDispatch } from '@/state/hooks';
import { AuthLayout, hasBackHistory } from '@/components/layout/AuthLayout';
import { TextField } from '@/components/TextField';
import { notifyError } from '@/lib/notify';
import { loadingClosed, loadingOpened } from '@/state/loadingSlice';
import { useCompleteRegisterMutation, useLoginSocialMediaMutation } from './authApi';
import { requestGoogleAccount } from './googleSignIn';
import { PasswordChecklist } from './PasswordChecklist';
import { setPasswordSchema, type SetPasswordForm } from './schemas';
import { COMPLETE_REGISTER_PARAM } from './SignupPage';
import { useEnterDashboard } from './useEnterDashboard';

export const GOOGLE_FINISH_ERROR = 'Ocorreu um erro ao finalizar o cadastro com sua conta Google';

/** Registration, password step (/sign-up-password or /SignupPassword?complete-register=...). */
export default function SignUpPasswordPage() {
  const [params] = useSearchParams();
  const enterDashboard = useEnterDashboard();
  const dispatch = useAppDispatch();
  const [completeRegister, { isLoading }] = useCompleteRegisterMutation();
  const [loginSocialMedia] = useLoginSocialMediaMutation();
  const googleClientId = import.meta.env.VITE_GOOGLE_CLIENT_ID;
  const link = params.get(COMPLETE_REGISTER_PARAM);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<SetPasswordForm>({
    resolver: yupResolver(setPasswordSchema),
    defaultValues: { password: '', password_confirm: '' },
  });
  const password = watch('password') ?? '';

  if (!link) return <Navigate to="/" replace />;

  const onSubmit = async (values: SetPasswordForm) => {
    dispatch(loadingOpened());
    try {
      await completeRegister({ completeRegister: link, password: values.password }).unwrap();
      await enterDashboard();
    } catch {
      // The base query already told the user.
    } finally {
      dispatch(loadingClosed());
    }
  };

  const finishWithGoogle = async () => {
    if (!googleClientId) return;
    let account;
    try {
      account = await requestGoogleAccount(googleClientId);
    } catch {
      notifyError(GOOGLE_FINISH_ERROR);
      return;
    }
    dispatch(loadingOpened());
    try {
      await loginSocialMedia({ idUser: account.id, socialMedia: 'google', accessToken: account.accessToken }).unwrap();
      await enterDashboard();
    } catch {
      // The base query already told the user.
    } finally {
      dispatch(loadingClosed());
    }
  };

  return (
    <AuthLayout title="Cadastro | Senha" showBack={hasBackHistory()}>
      <p className="auth-text">Insira sua senha para finalizar o cadastro.</p>
      <form className="form" noValidate onSubmit={handleSubmit(onSubmit)}>
        <TextField
          label="Senha"
          type="password"
          autoComplete="new-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <TextField
          label="Digite sua senha novamente"
          type="password"
          autoComplete="new-password"
          error={errors.password_confirm?.message}
          {...register('password_confirm')}
        />
        <PasswordChecklist value={password} />
        <button type="submit" className="button button-primary button-block" disabled={isLoading}>
          Confirmar
        </button>
        {googleClientId && (
          <button type="button" className="button button-outline button-block" onClick={finishWithGoogle}>
            <span className="google-mark" aria-hidden="true">
              G
            </span>
            Finalize com o Google
          </button>
        )}
      </form>
    </AuthLayout>
  );
}
