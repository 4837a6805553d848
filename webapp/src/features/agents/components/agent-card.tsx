import { useId } from 'react';
import { Link } from 'react-router';
import { CardSkeleton } from '../../../components/listing/listing';
import { agentPagePath, creatorPagePath, type AgentCard as Card } from '../../../lib/api/agents';
import { modelLabel, priceLabel } from '../agent-text';
import { ServerBadges } from './server-badges';

function Rating({ average, count }: { average: number; count: number }) {
  if (count === 0) return <span className="agent-card__rating">No ratings yet</span>;
  return (
    <span className="agent-card__rating" aria-label={`Average rating ${average.toFixed(1)} out of 5 from ${count} rating${count === 1 ? '' : 's'}`}>
      <span aria-hidden="true">★ </span>
      {average.toFixed(1)} ({count})
    </span>
  );
}

/** One agent of the marketplace: its name opens its page. */
export function AgentCard({ agent }: { agent: Card }) {
  const titleId = useId();
  return (
    <article className="agent-card" data-testid="agent-card" data-agent-id={agent.id} aria-labelledby={titleId}>
      <div className="agent-card__top">
        <span className="agent-card__category">{agent.category_name || 'Uncategorised'}</span>
        <Rating average={agent.rating_avg} count={agent.rating_count} />
      </div>
      <h3 id={titleId} className="agent-card__title">
        <Link to={agentPagePath(agent.id)}>{agent.name}</Link>
      </h3>
      {agent.creator ? (
        <Link to={creatorPagePath(agent.creator.username)} className="agent-card__creator" data-testid="creator-link">
          by {agent.creator.display_name}
        </Link>
      ) : null}
      <p className="agent-card__description">{agent.description}</p>
      <p className="agent-card__model">
        <span className="agent-card__label">Model:</span> {modelLabel(agent)}
      </p>
      <ServerBadges servers={agent.servers} />
      <div className="agent-card__meta">
        <span className="agent-card__price" data-testid="agent-price">
          {priceLabel(agent)}
        </span>
        <Link to={agentPagePath(agent.id)} className="button-link" aria-describedby={titleId}>
          View agent
        </Link>
      </div>
    </article>
  );
}

/** One loading placeholder in the card's shape. */
export function AgentCardSkeleton() {
  return <CardSkeleton className="agent-card agent-card--skeleton" testId="agent-card-skeleton" parts={['short', 'title', 'line', 'line', 'short', 'short']} />;
}
