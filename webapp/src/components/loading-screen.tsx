import { Loader } from '@aws-amplify/ui-react';

/** Full-area spinner while auth state or a route chunk loads. */
export function LoadingScreen({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="loading-screen" role="status" aria-live="polite">
      <Loader size="large" aria-hidden="true" />
      <span className="loading-screen__label">{label}</span>
    </div>
  );
}
