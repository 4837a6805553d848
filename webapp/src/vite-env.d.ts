/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Google Analytics 4 measurement id (G-XXXX); analytics is a no-op without it. */
  readonly VITE_ANALYTICS_ID?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
