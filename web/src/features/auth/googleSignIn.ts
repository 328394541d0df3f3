// Google sign-in without a library: the identity provider's script gives an
// access token (scope openid profile email) and its user-info service the
// account id and e-mail, which the login-social-media call takes.

interface TokenResponse {
  access_token?: string;
  error?: string;
}

interface GoogleIdentity {
  accounts: {
    oauth2: {
      initTokenClient(config: {
        client_id: string;
        scope: string;
        callback: (response: TokenResponse) => void;
        error_callback?: (error: unknown) => void;
      }): { requestAccessToken(): void };
    };
  };
}

declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

const SCRIPT_SRC = 'https://accounts.google.com/gsi/client';
const USER_INFO_URL = 'https://www.googleapis.com/oauth2/v2/userinfo';

let scriptLoading: Promise<void> | null = null;

function loadScript(): Promise<void> {
  if (window.google?.accounts) return Promise.resolve();
  scriptLoading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_SRC;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      scriptLoading = null;
      reject(new Error('google script failed to load'));
    };
    document.head.appendChild(script);
  });
  return scriptLoading;
}

export interface GoogleAccount {
  id: string;
  email: string;
  accessToken: string;
}

/** Asks the user for their Google account and returns its id and e-mail. */
export async function requestGoogleAccount(clientId: string): Promise<GoogleAccount> {
  await loadScript();
  const accessToken = await new Promise<string>((resolve, reject) => {
    const client = window.google!.accounts.oauth2.initTokenClient({
      client_id: clientId,
      scope: 'openid profile email',
      callback: (response) =>
        response.access_token ? resolve(response.access_token) : reject(new Error(response.error)),
      error_callback: reject,
    });
    client.requestAccessToken();
  });
  const response = await fetch(USER_INFO_URL, { headers: { Authorization: `Bearer ${accessToken}` } });
  if (!response.ok) throw new Error(`user info: ${response.status}`);
  const info = (await response.json()) as { id?: string; email?: string };
  if (!info.id) throw new Error('user info without id');
  return { id: String(info.id), email: info.email ?? '', accessToken };
}
