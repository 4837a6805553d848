// The review queue, the creators and the agents lists (docs/admin.md, Creators and reviews).

import { bool, isRecord, list, num, str, strList } from '../../../lib/api/wire';
import { amountOrNull } from './read-order';
import { idOf, versionOf } from './read-page';
import type { AdminAgent, AdminCreator, AdminReview, ReviewAgent, ReviewAgentServer, ReviewDecision } from './types';

function readDecision(v: unknown): ReviewDecision | null {
  if (!isRecord(v)) return null;
  return { at: str(v.at), decision: str(v.decision), reason: str(v.reason) };
}

function readReviewAgent(v: unknown): ReviewAgent | null {
  if (!isRecord(v)) return null;
  return {
    provider: str(v.provider),
    model: str(v.model),
    servers: list(v.servers)
      .filter(isRecord)
      .map((s): ReviewAgentServer => ({ server_id: str(s.server_id), name: str(s.name) || str(s.server_id), tools: strList(s.tools) })),
    starters: strList(v.starters),
  };
}

export function readReview(v: unknown): AdminReview | null {
  const id = idOf(v);
  if (id === null || !isRecord(v)) return null;
  const c = isRecord(v.creator) ? v.creator : {};
  return {
    id,
    kind: str(v.kind),
    title: str(v.title),
    description: str(v.description),
    content: str(v.content),
    price: num(v.price),
    category_id: str(v.category_id),
    category_name: str(v.category_name),
    version: versionOf(v.version),
    change_note: str(v.change_note),
    live_version: num(v.live_version),
    submitted_at: str(v.submitted_at),
    creator: { user_id: str(c.user_id), username: str(c.username), display_name: str(c.display_name), payouts_status: str(c.payouts_status) },
    decisions: list(v.decisions)
      .map(readDecision)
      .filter((d): d is ReviewDecision => d !== null),
    agent: readReviewAgent(v.agent),
  };
}

export function readCreator(v: unknown): AdminCreator | null {
  const id = idOf(v);
  if (id === null || !isRecord(v)) return null;
  const p = isRecord(v.prompts) ? v.prompts : {};
  return {
    id,
    username: str(v.username),
    display_name: str(v.display_name),
    country: str(v.country),
    suspended: bool(v.suspended),
    payouts_status: str(v.payouts_status),
    charges_enabled: bool(v.charges_enabled),
    payouts_enabled: bool(v.payouts_enabled),
    prompts: { draft: num(p.draft), in_review: num(p.in_review), published: num(p.published), rejected: num(p.rejected) },
    sales: amountOrNull(v.sales),
    net: amountOrNull(v.net),
    created_at: str(v.created_at),
  };
}

export function readAgent(v: unknown): AdminAgent | null {
  const id = idOf(v);
  if (id === null || !isRecord(v)) return null;
  const c = isRecord(v.creator) ? v.creator : {};
  return {
    id,
    name: str(v.name),
    description: str(v.description),
    provider: str(v.provider),
    model: str(v.model),
    price: num(v.price),
    category_id: str(v.category_id),
    category_name: str(v.category_name),
    state: str(v.state),
    version: versionOf(v.version),
    published_versions: num(v.published_versions),
    suspended: bool(v.suspended),
    creator_suspended: bool(v.creator_suspended),
    withdrawn: bool(v.withdrawn),
    on_sale: bool(v.on_sale),
    creator: { user_id: str(c.user_id), username: str(c.username), display_name: str(c.display_name) },
    rating_avg: num(v.rating_avg),
    rating_count: num(v.rating_count),
    created_at: str(v.created_at),
  };
}
