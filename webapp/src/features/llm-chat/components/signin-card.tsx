// A tool call's server wants the user to sign in again before the call
// runs (the tool_signin frame): "{server} needs you to sign in", the
// server's reason, Sign in (the server's page, with the scope it asked
// for; the browser comes back here and the reply goes on by itself) and
// Continue (the reply goes on now: for a sign-in done in another tab).

import type { PendingSignIn, ToolBlock } from '../state/types';
import { Arguments, Head } from './tool-block';

/** The card's heading. */
export const signInTitle = (serverName: string): string => `${serverName || 'The server'} needs you to sign in`;

interface SignInCardProps {
  block: ToolBlock;
  signin: PendingSignIn;
  /** Another message or answer is on its way in this tab. */
  busy: boolean;
  onSignIn: () => void;
  onContinue: () => void;
}

export function SignInCard({ block, signin, busy, onSignIn, onContinue }: SignInCardProps) {
  const serverName = signin.serverName || block.serverName;
  const waiting = signin.status === 'pending';
  return (
    <div role="group" className="chat-tool chat-tool--approval" data-testid="tool-signin" data-state={signin.status} aria-label={signInTitle(serverName)}>
      <Head block={{ ...block, serverName, state: signin.status === 'failed' ? 'failed' : 'signin' }} />
      <p className="chat-tool__ask">
        <strong>{signInTitle(serverName)}</strong>
      </p>
      {signin.reason ? (
        <p className="chat-tool__description" data-testid="signin-reason">
          {signin.reason}
        </p>
      ) : null}
      {signin.scope ? (
        <p className="chat-tool__description" data-testid="signin-scope">
          Access asked for: <code>{signin.scope}</code>
        </p>
      ) : null}
      <Arguments value={block.arguments} />
      {signin.status === 'failed' ? (
        <p className="chat-tool__expired" role="status">
          {signin.detail || 'This sign-in can no longer resume the reply. Send your message again.'}
        </p>
      ) : (
        <div className="chat-tool__actions">
          <button type="button" className="chat-button chat-button--small chat-button--primary" disabled={busy || !waiting} onClick={onSignIn}>
            Sign in
          </button>
          <button type="button" className="chat-button chat-button--small" disabled={busy || !waiting} onClick={onContinue}>
            Continue
          </button>
          {signin.status === 'signing' ? (
            <p className="chat-tool__ask" role="status">
              Opening {serverName}'s sign-in page…
            </p>
          ) : null}
        </div>
      )}
    </div>
  );
}
