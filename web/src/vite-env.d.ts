/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** OAuth client id for 'Continuar com o Google'; the button hides when unset. */
  readonly VITE_GOOGLE_CLIENT_ID?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
