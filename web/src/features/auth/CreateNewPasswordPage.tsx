import { yupResolver } from '@hookform/resolvers/yup';
import { applyServerErrors } from '@/components/form/serverErrors';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useAppDispatch } from '@/state/hooks';
import { AuthLayout, hasBackHistory } from '@/components/layout/AuthLayout';
import { TextField } from '@/components/TextField';
import { loadingClosed, loadingOpened } from '@/state/loadingSlice';
import { useResetPasswordMutation } from './authApi';
import { PasswordChecklist } from './PasswordChecklist';
import { newPasswordSchema, type NewPasswordForm } from './schemas';
import type { RecoveryState } from './SendRecoveryEmailPage';
import { useEnterDashboard } from './useEnterDashboard';

export const RECOVERY_DATA_PARAM = 'recovery-data';

/** Recovery, last step: reached from the code step (state) or the e-mailed link (query). */
export default function CreateNewPasswordPage() {
  const [params] = useSearchParams();
  const state = useLocation().state as RecoveryState | null;
  const enterDashboard = useEnterDashboard();
  const dispatch = useAppDispatch();
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<NewPasswordForm>({
    resolver: yupResolver(newPasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const password = watch('password') ?? '';
  const recoveryData = params.get(RECOVERY_DATA_PARAM) ?? '';

  if (!recoveryData && !state) return <Navigate to="/send-recovery-email" replace />;

  const onSubmit = async (values: NewPasswordForm) => {
    dispatch(loadingOpened());
    try {
      await resetPassword({
        cpfOrEmail: state?.cpfOrEmail ?? '',
        recoveryCode: state?.recoveryCode ?? '',
        newPassword: values.password,
        recoveryData,
      }).unwrap();
      await enterDashboard();
    } catch (failure) {
      // The base query already told the user; a field's message lands on it ('A nova senha
      // deve ser diferente da senha atual.' on newPassword).
      applyServerErrors(failure, setError, ['password'], { newPassword: 'password' });
    } finally {
      dispatch(loadingClosed());
    }
  };

  return (
    <AuthLayout title="Criar nova senha" showBack={hasBackHistory()}>
      <form className="form" noValidate onSubmit={handleSubmit(onSubmit)}>
        <TextField
          label="Senha"
          type="password"
          autoComplete="new-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <TextField
          label="Confirmação da senha"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <PasswordChecklist value={password} />
        <button type="submit" className="button button-primary button-block" disabled={isLoading}>
          Enviar
        </button>
      </form>
    </AuthLayout>
  );
}
