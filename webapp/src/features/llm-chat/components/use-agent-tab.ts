// /llm-chat?agent={id} (an agent page's Start chat): a NEW tab bound to the
// agent, on its provider and model, once the agent is read; the parameter
// is dropped so a reload does not open another. A paid agent the user has
// not bought opens nothing and says why.

import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { fetchAgent } from '../../../lib/api/agents';
import { isProviderId } from '../providers';
import { chatStore } from '../store/chat-store';
import { chatError } from '../store/toasts';

export const AGENT_NOT_OWNED = 'Buy this agent to chat with it.';
export const AGENT_OPEN_FAILED = 'The agent could not be opened.';

export function useAgentTab(userId: string | null): void {
  const [params, setParams] = useSearchParams();
  const agentId = params.get('agent');
  const taken = useRef<string | null>(null);
  useEffect(() => {
    if (!agentId || !userId || taken.current === agentId) return;
    taken.current = agentId;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('agent');
        return next;
      },
      { replace: true },
    );
    fetchAgent(agentId).then(
      (agent) => {
        if (!agent.is_free && !agent.owned) chatError(AGENT_NOT_OWNED);
        else if (!isProviderId(agent.provider)) chatError(`This agent runs on ${agent.provider} ${agent.model}, which the chat does not offer.`);
        else chatStore.newAgentTab({ id: agent.id, name: agent.name }, agent.provider, agent.model);
      },
      (error: unknown) => chatError(errorMessage(error, AGENT_OPEN_FAILED)),
    );
  }, [agentId, userId, setParams]);
}
