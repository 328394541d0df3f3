import { useNavigate } from 'react-router';
import { useAppDispatch } from '@/state/hooks';
import { Icon } from '@/components/Icon';
import { AuthLayout } from '@/components/layout/AuthLayout';
import { notifyError } from '@/lib/notify';
import { loadingClosed, loadingOpened } from '@/state/loadingSlice';
import { useLoginSocialMediaMutation } from './authApi';
import { requestGoogleAccount } from './googleSignIn';
import { useEnterDashboard } from './useEnterDashboard';

export const GOOGLE_USER_INFO_ERROR = 'Ocorreu um erro ao buscar informações do usuário';

export default function LoginPage() {
  const navigate = useNavigate();
  const enterDashboard = useEnterDashboard();
  const dispatch = useAppDispatch();
  const [loginSocialMedia] = useLoginSocialMediaMutation();
  const googleClientId = import.meta.env.VITE_GOOGLE_CLIENT_ID;

  const signInWithGoogle = async () => {
    if (!googleClientId) return;
    let account;
    try {
      account = await requestGoogleAccount(googleClientId);
    } catch {
      notifyError(GOOGLE_USER_INFO_ERROR);
      return;
    }
    dispatch(loadingOpened());
    try {
      await loginSocialMedia({ idUser: account.id, socialMedia: 'google', accessToken: account.accessToken }).unwrap();
      await enterDashboard();
    } catch {
      // The base query already told the user.
    } finally {
      dispatch(loadingClosed());
    }
  };

  return (
    <AuthLayout title="Login">
      <div className="auth-actions">
        <button type="button" className="button button-primary button-block" onClick={() => navigate('/login-email')}>
          <Icon name="mail" />
          Continuar com e-mail
        </button>
        {googleClientId && (
          <>
            <div className="separator" role="separator">
              <span>ou</span>
            </div>
            <button type="button" className="button button-outline button-block" onClick={signInWithGoogle}>
              <span className="google-mark" aria-hidden="true">
                G
              </span>
              Continuar com o Google
            </button>
          </>
        )}
      </div>
    </AuthLayout>
  );
}
