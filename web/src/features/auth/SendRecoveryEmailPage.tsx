import { yupResolver } from '@hookform/resolvers/yup';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '@/state/hooks';
import { AuthLayout, hasBackHistory } from '@/components/layout/AuthLayout';
import { TextField } from '@/components/TextField';
import { notifySuccess } from '@/lib/notify';
import { loadingClosed, loadingOpened } from '@/state/loadingSlice';
import { useRequestRecoveryCodeMutation } from './authApi';
import { recoveryEmailSchema, type RecoveryEmailForm } from './schemas';

export const CODE_SENT_MESSAGE = 'Código enviado com sucesso.';

/** What the recovery steps pass along in the history state. */
export interface RecoveryState {
  cpfOrEmail?: string;
  recoveryCode?: string;
}

export default function SendRecoveryEmailPage() {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [requestCode, { isLoading }] = useRequestRecoveryCodeMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RecoveryEmailForm>({ resolver: yupResolver(recoveryEmailSchema), defaultValues: { email: '' } });

  const goOn = (cpfOrEmail: string) =>
    navigate('/send-code-received', { state: { cpfOrEmail } satisfies RecoveryState });

  const send = async ({ email }: RecoveryEmailForm) => {
    dispatch(loadingOpened());
    try {
      await requestCode({ cpfOrEmail: email }).unwrap();
      notifySuccess(CODE_SENT_MESSAGE);
      goOn(email);
    } catch {
      // The base query already told the user.
    } finally {
      dispatch(loadingClosed());
    }
  };

  return (
    <AuthLayout title="Recuperação de senha" showBack={hasBackHistory()}>
      <p className="auth-text">Informe o seu e-mail para receber o código e o link para alterar sua senha</p>
      <form className="form" noValidate onSubmit={handleSubmit(send)}>
        <TextField label="E-mail" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
        <div className="form-actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={handleSubmit(({ email }) => goOn(email))}
          >
            Já possuo o código
          </button>
          <button type="submit" className="button button-primary" disabled={isLoading}>
            Enviar
          </button>
        </div>
      </form>
    </AuthLayout>
  );
}
