import * as yup from 'yup';
import { EMAIL_PATTERN } from '@/lib/validation';

// Messages exactly as in spec 01 §5 'Login'.
export const loginSchema = yup.object({
  email: yup
    .string()
    .trim()
    .required('Digite seu e-mail.')
    .matches(EMAIL_PATTERN, { message: 'E-mail inválido', excludeEmptyString: true }),
  password: yup
    .string()
    .required('Digite sua senha.')
    // An empty password only gets the 'required' message.
    .test('min', 'Mínimo de 6 caracteres.', (value) => !value || value.length >= 6),
});

export type LoginForm = yup.InferType<typeof loginSchema>;
