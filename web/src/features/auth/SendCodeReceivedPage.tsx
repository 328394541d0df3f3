import { Navigate, useLocation } from 'react-router';
import { AuthLayout, hasBackHistory } from '@/components/layout/AuthLayout';

interface RecoveryState {
  cpfOrEmail?: string;
}

// Password recovery, code step: built in a later issue.
export default function SendCodeReceivedPage() {
  const state = useLocation().state as RecoveryState | null;
  if (!state?.cpfOrEmail) return <Navigate to="/send-recovery-email" replace />;
  return (
    <AuthLayout title="Recuperação de senha" showBack={hasBackHistory()}>
      <p>Enviamos um código no seu e-mail, informe no campo abaixo</p>
    </AuthLayout>
  );
}
