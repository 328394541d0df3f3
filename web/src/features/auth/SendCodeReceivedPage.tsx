import { yupResolver } from '@hookform/resolvers/yup';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useAppDispatch } from '@/state/hooks';
import { AuthLayout, hasBackHistory } from '@/components/layout/AuthLayout';
import { TextField } from '@/components/TextField';
import { onlyDigits } from '@/lib/masks';
import { notifySuccess } from '@/lib/notify';
import { loadingClosed, loadingOpened } from '@/state/loadingSlice';
import { useValidateRecoveryCodeMutation } from './authApi';
import { recoveryCodeSchema, type RecoveryCodeForm } from './schemas';
import type { RecoveryState } from './SendRecoveryEmailPage';

export const CODE_VALIDATED_MESSAGE = 'Código validado com sucesso.';

export default function SendCodeReceivedPage() {
  const state = useLocation().state as RecoveryState | null;
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [validate, { isLoading }] = useValidateRecoveryCodeMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RecoveryCodeForm>({ resolver: yupResolver(recoveryCodeSchema), defaultValues: { code: '' } });

  const cpfOrEmail = state?.cpfOrEmail;
  if (!cpfOrEmail) return <Navigate to="/send-recovery-email" replace />;

  const onSubmit = async ({ code }: RecoveryCodeForm) => {
    dispatch(loadingOpened());
    try {
      await validate({ cpfOrEmail, recoveryCode: code }).unwrap();
      notifySuccess(CODE_VALIDATED_MESSAGE);
      navigate('/create-new-password', { state: { cpfOrEmail, recoveryCode: code } satisfies RecoveryState });
    } catch {
      // The base query already told the user.
    } finally {
      dispatch(loadingClosed());
    }
  };

  const codeField = register('code');
  return (
    <AuthLayout title="Recuperação de senha" showBack={hasBackHistory()}>
      <p className="auth-text">Enviamos um código no seu e-mail, informe no campo abaixo</p>
      <form className="form" noValidate onSubmit={handleSubmit(onSubmit)}>
        <TextField
          label="Código"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          error={errors.code?.message}
          {...codeField}
          onChange={(event) => {
            // Numeric only.
            event.target.value = onlyDigits(event.target.value);
            return codeField.onChange(event);
          }}
        />
        <button type="submit" className="button button-primary button-block" disabled={isLoading}>
          Enviar
        </button>
      </form>
    </AuthLayout>
  );
}
