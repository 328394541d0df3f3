import { yupResolver } from '@hookform/resolvers/yup';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '@/state/hooks';
import { AuthLayout, hasBackHistory } from '@/components/layout/AuthLayout';
import { TextField } from '@/components/TextField';
import { loadingClosed, loadingOpened } from '@/state/loadingSlice';
import { useLoginMutation } from './authApi';
import { loginSchema, type LoginForm } from './loginSchema';
import { useEnterDashboard } from './useEnterDashboard';

export default function LoginEmailPage() {
  const navigate = useNavigate();
  const enterDashboard = useEnterDashboard();
  const dispatch = useAppDispatch();
  const [login, { isLoading }] = useLoginMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginForm>({
    resolver: yupResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = async (values: LoginForm) => {
    dispatch(loadingOpened());
    try {
      await login({ email: values.email, password: values.password }).unwrap();
      await enterDashboard();
    } catch {
      // The base query already told the user.
    } finally {
      dispatch(loadingClosed());
    }
  };

  return (
    <AuthLayout title="Login | E-mail" showBack={hasBackHistory()}>
      <form className="form" noValidate onSubmit={handleSubmit(onSubmit)}>
        <TextField label="E-mail" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
        <TextField
          label="Senha"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <button type="button" className="button button-link" onClick={() => navigate('/send-recovery-email')}>
          Esqueci minha senha
        </button>
        <button type="submit" className="button button-primary button-block" disabled={isLoading}>
          Entrar
        </button>
      </form>
    </AuthLayout>
  );
}
