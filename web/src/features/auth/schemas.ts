import * as yup from 'yup';
import { EMAIL_PATTERN } from '@/lib/validation';
import { isValidCpf, onlyDigits } from '@/lib/masks';

// Messages exactly as in spec 01 §5.

/** One of these counts as the special character of a password. */
export const PASSWORD_SPECIALS = '!@#$%^&*';

/** The live checklist (spec 01 §5 'Password checklist shown live'). */
export const passwordRules = [
  { id: 'length', label: 'Pelo menos 6 caracteres', test: (value: string) => value.length >= 6 },
  { id: 'upper', label: 'Uma letra maiúscula', test: (value: string) => /[A-Z]/.test(value) },
  { id: 'lower', label: 'Uma letra minúscula', test: (value: string) => /[a-z]/.test(value) },
  { id: 'digit', label: 'Um número', test: (value: string) => /\d/.test(value) },
  {
    id: 'special',
    label: `Um caractere especial (${PASSWORD_SPECIALS.split('').join(' ')})`,
    test: (value: string) => [...PASSWORD_SPECIALS].some((char) => value.includes(char)),
  },
] as const;

/** Lowercase, uppercase, digit and one of ! @ # $ % ^ & *. */
export const isComplexPassword = (value: string) =>
  passwordRules.filter((rule) => rule.id !== 'length').every((rule) => rule.test(value));

/** An empty confirmation only gets the 'required' message. */
function sameAsPassword(this: yup.TestContext, value: string | undefined) {
  return !value || value === this.parent.password;
}

const whenFilled = (test: (value: string) => boolean) => (value: string | undefined) => !value || test(value);

export const recoveryEmailSchema = yup.object({
  email: yup
    .string()
    .trim()
    .required('Digite seu e-mail.')
    .matches(EMAIL_PATTERN, { message: 'E-mail inválido', excludeEmptyString: true }),
});
export type RecoveryEmailForm = yup.InferType<typeof recoveryEmailSchema>;

export const recoveryCodeSchema = yup.object({
  code: yup.string().trim().required('Digite o código.'),
});
export type RecoveryCodeForm = yup.InferType<typeof recoveryCodeSchema>;

/** Registration, password step. */
export const setPasswordSchema = yup.object({
  password: yup
    .string()
    .required('Digite sua senha.')
    .test('min', 'Sua senha precisa ter ao menos 6 dígitos', whenFilled((v) => v.length >= 6))
    .test('complex', 'Digite uma senha válida.', whenFilled(isComplexPassword)),
  password_confirm: yup
    .string()
    .required('Digite sua senha novamente.')
    .test('equal', 'A senha informada deve ser igual a anterior', sameAsPassword),
});
export type SetPasswordForm = yup.InferType<typeof setPasswordSchema>;

/** Recovery, new password step. */
export const newPasswordSchema = yup.object({
  password: yup
    .string()
    .required('Digite a senha nova.')
    .test('min', 'Mínimo de 6 caracteres.', whenFilled((v) => v.length >= 6))
    .test('complex', 'Digite uma senha válida.', whenFilled(isComplexPassword)),
  confirmPassword: yup
    .string()
    .required('Digite a confirmação da senha.')
    .test('min', 'Mínimo de 6 caracteres.', whenFilled((v) => v.length >= 6))
    .test('equal', 'As senhas não são iguais.', sameAsPassword),
});
export type NewPasswordForm = yup.InferType<typeof newPasswordSchema>;

/** Registration, info step. `now` is injectable for tests. */
export const signupSchema = (now: () => Date = () => new Date()) =>
  yup.object({
    cpf: yup
      .string()
      .required('O campo CPF é obrigatório.')
      .test('cpf', 'Digite um CPF válido.', whenFilled((v) => onlyDigits(v).length >= 11 && isValidCpf(v))),
    name: yup
      .string()
      .trim()
      .required('O campo Nome Completo é obrigatório.')
      .test('full', 'Digite o seu nome completo', whenFilled((v) => v.trim().split(/\s+/).length >= 2)),
    cell: yup
      .string()
      .required('O campo celular é obrigatório.')
      .test('cell', 'Digite um número de celular válido.', whenFilled((v) => onlyDigits(v).length >= 11)),
    whats: yup.boolean().default(false),
    date: yup
      .string()
      .default('')
      .test(
        'past',
        'Digite uma data de nascimento válida',
        whenFilled((v) => {
          const day = new Date(`${v}T00:00:00-03:00`);
          return !Number.isNaN(day.getTime()) && day.getTime() < now().getTime();
        }),
      ),
  });
export type SignupForm = yup.InferType<ReturnType<typeof signupSchema>>;
