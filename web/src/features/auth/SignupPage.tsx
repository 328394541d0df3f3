import { AuthLayout, hasBackHistory } from '@/components/layout/AuthLayout';

// Registration, info step: built in a later issue.
export default function SignupPage() {
  return <AuthLayout title="Cadastro | Informações" showBack={hasBackHistory()}>{null}</AuthLayout>;
}
