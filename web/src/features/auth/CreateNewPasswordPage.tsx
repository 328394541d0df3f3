import { Navigate, useLocation, useSearchParams } from 'react-router';
import { AuthLayout } from '@/components/layout/AuthLayout';

// Password recovery, new password step: built in a later issue.
export default function CreateNewPasswordPage() {
  const [params] = useSearchParams();
  const state = useLocation().state as object | null;
  if (!params.get('recovery-data') && !state) return <Navigate to="/send-recovery-email" replace />;
  return <AuthLayout title="Criar nova senha">{null}</AuthLayout>;
}
