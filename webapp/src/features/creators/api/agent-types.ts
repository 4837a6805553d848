// The creators API's agent answers (shared/api/creatorsapi/agents.go,
// docs/creators.md): the same states and versions as a creator's prompts.

import type { CreatorPromptState } from './types';

/** A registry server an agent uses and the tools it may call there. */
export interface AgentServer {
  server_id: string;
  tools: string[];
}

/** The next version of a published agent, saved but not live yet. */
export interface AgentPendingVersion {
  name: string;
  description: string;
  instructions: string;
  provider: string;
  model: string;
  servers: AgentServer[];
  starters: string[];
  price: number;
  category_id: string;
  change_note: string;
  state: Exclude<CreatorPromptState, 'published'>;
  review_reason: string | null;
}

/** A creator's own agent, as GET/POST/PATCH /creators/me/agents… answer it. */
export interface CreatorAgent {
  id: string;
  name: string;
  description: string;
  instructions: string;
  provider: string;
  model: string;
  servers: AgentServer[];
  starters: string[];
  /** 0: free. */
  price: number;
  is_free: boolean;
  category_id: string;
  category_name: string;
  state: CreatorPromptState;
  review_reason: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  purchases: number;
  rating_avg: number;
  rating_count: number;
  published_versions: number;
  /** Taken off the marketplace by an admin (its buyers keep it). */
  suspended: boolean;
  /** Deleted by its creator after it sold: off the marketplace, its buyers keep it, no longer editable. */
  withdrawn: boolean;
  pending: AgentPendingVersion | null;
}

/** What POST takes, and PATCH with the version read (and, on a published agent, what changed). */
export interface CreatorAgentInput {
  name: string;
  description: string;
  instructions: string;
  provider: string;
  model: string;
  servers: AgentServer[];
  starters: string[];
  category_id: string;
  price: number;
}

export interface CreatorAgentPatch extends CreatorAgentInput {
  version: number;
  change_note?: string;
}

/** POST /creators/me/agents/import: the draft made, and the file's fields not taken (dotted paths). */
export interface AgentImport {
  agent: CreatorAgent;
  ignored: string[];
}

/** A registry server as the agent form shows it (GET /mcp-servers/…): its tools as the last probe found them. */
export interface RegistryServer {
  id: string;
  name: string;
  description: string;
  /** How a user connects: none, a key, or an OAuth sign-in. */
  auth: 'none' | 'key' | 'oauth';
}

export interface RegistryTool {
  name: string;
  title: string;
  description: string;
}
