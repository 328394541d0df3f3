import { yupResolver } from '@hookform/resolvers/yup';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { AuthLayout, hasBackHistory } from '@/components/layout/AuthLayout';
import { TextField } from '@/components/TextField';
import { signupSchema, type SignupForm } from './schemas';

/** The password step; '/SignupPassword' is the other reading of its address (spec 01 §2). */
export const SIGNUP_PASSWORD_PATH = '/sign-up-password';
export const COMPLETE_REGISTER_PARAM = 'complete-register';

/** Registration, info step: nothing is sent here; the data goes on to the password step. */
export default function SignupPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const schema = useMemo(() => signupSchema(), []);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignupForm>({
    resolver: yupResolver(schema),
    defaultValues: { cpf: '', name: '', cell: '', whats: false, date: '' },
  });

  const onSubmit = (values: SignupForm) => {
    const link = params.get(COMPLETE_REGISTER_PARAM);
    const query = link ? `?${COMPLETE_REGISTER_PARAM}=${encodeURIComponent(link)}` : '';
    navigate(`${SIGNUP_PASSWORD_PATH}${query}`, { state: { info: values } });
  };

  return (
    <AuthLayout title="Cadastro | Informações" showBack={hasBackHistory()}>
      <form className="form" noValidate onSubmit={handleSubmit(onSubmit)}>
        <TextField label="CPF" mask="cpf" error={errors.cpf?.message} {...register('cpf')} />
        <TextField label="Nome completo" autoComplete="name" error={errors.name?.message} {...register('name')} />
        <TextField label="Celular" mask="phone" autoComplete="tel" error={errors.cell?.message} {...register('cell')} />
        <label className="checkbox">
          <input type="checkbox" {...register('whats')} />
          Este número é WhatsApp
        </label>
        <TextField label="Data de nascimento" type="date" error={errors.date?.message} {...register('date')} />
        <button type="submit" className="button button-primary button-block">
          Próximo
        </button>
      </form>
    </AuthLayout>
  );
}
