import { Navigate, useSearchParams } from 'react-router';
import { AuthLayout } from '@/components/layout/AuthLayout';

// Registration, password step: built in a later issue.
export default function SignUpPasswordPage() {
  const [params] = useSearchParams();
  if (!params.get('complete-register')) return <Navigate to="/" replace />;
  return (
    <AuthLayout title="Cadastro | Senha">
      <p>Insira sua senha para finalizar o cadastro.</p>
    </AuthLayout>
  );
}
