import { AuthLayout, hasBackHistory } from '@/components/layout/AuthLayout';

// Password recovery, e-mail step: built in a later issue.
export default function SendRecoveryEmailPage() {
  return (
    <AuthLayout title="Recuperação de senha" showBack={hasBackHistory()}>
      <p>Informe o seu e-mail para receber o código e o link para alterar sua senha</p>
    </AuthLayout>
  );
}
