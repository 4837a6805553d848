// /agents/{id}: an agent's page, public like a creator's: its name,
// creator, description, model, servers with the tools it may use, starter
// prompts, a free agent's instructions, its rating, and what the caller
// may do: Start chat (signed in; a paid agent once bought), Buy (a paid
// agent not owned: the checkout page), Export (a free agent's file).

import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Alert, Button, Text } from '@aws-amplify/ui-react';
import { toast } from '../../../components/notifications/notification-store';
import { Page } from '../../../components/page';
import { StarRating } from '../../../components/star-rating';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { agentChatPath, agentExportHref, checkoutAgent, creatorPagePath, rateAgent, useAgent, type Agent } from '../../../lib/api/agents';
import { browserLocation } from '../../../lib/browser-location';
import { copyToClipboard } from '../../../lib/clipboard';
import { useAuth } from '../../../lib/use-auth';
import { agentIdFromPath, modelLabel, priceLabel } from '../agent-text';
import { AuthBadge } from './server-badges';
import './agents.css';

export const AGENT_NOT_FOUND = 'Agent not found.';

/** Why the caller cannot rate the agent; null when they can. */
export function ratingBlocked(agent: Pick<Agent, 'is_free' | 'owned'>, signedIn: boolean): string | null {
  if (!signedIn) return 'Log in to rate this agent.';
  if (!agent.is_free && !agent.owned) return 'Buy this agent to rate it.';
  return null;
}

export default function AgentPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const id = agentIdFromPath(pathname);
  const { status } = useAuth();
  const signedIn = status === 'authenticated';
  const { agent, error, mutate } = useAgent(status === 'loading' ? null : id);
  const [buying, setBuying] = useState(false);
  const [rating, setRating] = useState<{ mine: number; busy: boolean } | null>(null);

  if (id === null || (error instanceof ApiError && error.status === 404)) {
    return (
      <Page title={AGENT_NOT_FOUND} className="agent-page page--centered">
        <Text>There is no agent at this address, or it is not on the marketplace now.</Text>
        <Link to="/agents" className="button-link button-link--primary">
          Back to the Agent Marketplace
        </Link>
      </Page>
    );
  }

  if (!agent) {
    return (
      <Page title={error ? 'Agent' : 'Loading agent…'} className="agent-page">
        {error ? (
          <Alert variation="error" heading="Could not load this agent" className="listing-error">
            <span>{errorMessage(error, 'Please check your connection and try again.')}</span>{' '}
            <Button size="small" onClick={() => void mutate()}>
              Retry
            </Button>
          </Alert>
        ) : (
          <p role="status">Loading…</p>
        )}
      </Page>
    );
  }

  const paidNotOwned = !agent.is_free && !agent.owned;

  // A free agent is shared by its page's address: whoever opens it can start a chat.
  const share = async (id: string) => {
    const link = `${window.location.origin}/agents/${encodeURIComponent(id)}`;
    if (await copyToClipboard(link)) toast.success('Link copied: anyone with it can open this agent and start a chat.');
    else toast.info(`Share this link: ${link}`);
  };

  const buy = async () => {
    setBuying(true);
    let leaving = false;
    try {
      const url = await checkoutAgent(agent.id);
      if (!url) {
        toast.error('The payment could not be started. Please try again.');
        return;
      }
      leaving = true;
      browserLocation.assign(url);
    } catch (err) {
      toast.error(errorMessage(err, 'The payment could not be started. Please try again.'));
      // "You already own this agent.": the page reads it again.
      if (err instanceof ApiError && err.status === 409) void mutate();
    } finally {
      // The button stays busy while the browser leaves for the checkout page.
      if (!leaving) setBuying(false);
    }
  };

  const rate = async (n: number) => {
    const blocked = ratingBlocked(agent, signedIn);
    if (blocked) {
      toast.info(blocked);
      return;
    }
    setRating({ mine: n, busy: true });
    try {
      const after = await rateAgent(agent.id, n);
      void mutate({ ...agent, ...after }, { revalidate: false });
      setRating({ mine: n, busy: false });
      toast.success('Thanks for rating this agent!');
    } catch (err) {
      setRating(null);
      toast.error(errorMessage(err, 'Your rating could not be saved. Please try again.'));
    }
  };

  return (
    <Page title={agent.name} className="agent-page">
      {agent.creator ? (
        <p className="agent-page__by">
          <Link to={creatorPagePath(agent.creator.username)} data-testid="creator-link">
            by {agent.creator.display_name}
          </Link>
        </p>
      ) : null}
      {agent.description ? <p>{agent.description}</p> : null}
      <dl className="agent-page__facts">
        <dt>Model</dt>
        <dd data-testid="agent-model">{modelLabel(agent)}</dd>
        <dt>Category</dt>
        <dd>{agent.category_name || 'Uncategorised'}</dd>
        <dt>Price</dt>
        <dd data-testid="agent-price">{priceLabel(agent)}</dd>
        <dt>Rating</dt>
        <dd>
          <StarRating
            title={agent.name}
            average={agent.rating_avg}
            count={agent.rating_count}
            userRating={rating?.mine ?? null}
            blockedReason={ratingBlocked(agent, signedIn)}
            busy={rating?.busy ?? false}
            onRate={(n) => void rate(n)}
          />
        </dd>
      </dl>

      <div className="agent-page__actions">
        {!signedIn ? (
          <Link to={`/login?redirect=${encodeURIComponent(pathname)}`} className="button-link button-link--primary">
            Log in to start a chat
          </Link>
        ) : paidNotOwned ? (
          <Button variation="primary" onClick={() => void buy()} isLoading={buying} loadingText="Processing...">
            Buy
          </Button>
        ) : (
          <Button variation="primary" onClick={() => navigate(agentChatPath(agent.id))}>
            Start chat
          </Button>
        )}
        {agent.is_free ? (
          <>
            <Button onClick={() => void share(agent.id)}>Copy share link</Button>
            <a href={agentExportHref(agent.id)} className="button-link" download>
              Export
            </a>
          </>
        ) : null}
      </div>

      <section className="agent-page__section" aria-labelledby="agent-servers-heading">
        <h2 id="agent-servers-heading">MCP servers and tools</h2>
        {agent.servers.length === 0 ? (
          <Text>This agent uses no MCP server.</Text>
        ) : (
          <ul className="agent-page__servers" data-testid="agent-page-servers">
            {agent.servers.map((s) => (
              <li key={s.server_id} data-server-id={s.server_id}>
                <strong>{s.name}</strong> <AuthBadge auth={s.auth} />
                <p className="agent-page__tools">{s.tools.length > 0 ? `Tools: ${s.tools.join(', ')}` : 'No tools allowed.'}</p>
              </li>
            ))}
          </ul>
        )}
      </section>

      {agent.starters.length > 0 ? (
        <section className="agent-page__section" aria-labelledby="agent-starters-heading">
          <h2 id="agent-starters-heading">Starter prompts</h2>
          <ul className="agent-page__starters" data-testid="agent-starters">
            {agent.starters.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </section>
      ) : null}

      {agent.instructions !== undefined ? (
        <section className="agent-page__section" aria-labelledby="agent-instructions-heading">
          <h2 id="agent-instructions-heading">Instructions</h2>
          <pre className="agent-page__instructions" data-testid="agent-instructions" tabIndex={0}>
            {agent.instructions}
          </pre>
        </section>
      ) : null}
    </Page>
  );
}
