export interface FeatureInfo {
  id: 'marketplace' | 'agents' | 'registry' | 'chat';
  to: string;
  icon: string;
  title: string;
  text: string;
  cta: string;
}

/** The four areas (SPEC §1), shared by the home page's blocks and the tour. */
export const FEATURES: readonly FeatureInfo[] = [
  {
    id: 'marketplace',
    to: '/marketplace',
    icon: '🛒',
    title: 'Prompt Marketplace',
    text: 'Browse prompts for business, writing, productivity and content creation. Use 5 of them free.',
    cta: 'Browse prompts',
  },
  {
    id: 'agents',
    to: '/agents',
    icon: '🤖',
    title: 'Agent Marketplace',
    text: 'Agents made of instructions, a model and MCP tools, shared or sold by creators: start a chat with one.',
    cta: 'Browse agents',
  },
  {
    id: 'registry',
    to: '/registry',
    icon: '🔌',
    title: 'MCP Registry',
    text: 'Find Model Context Protocol servers, see their features and connect in a click.',
    cta: 'Explore servers',
  },
  {
    id: 'chat',
    to: '/llm-chat',
    icon: '💬',
    title: 'LLM Chat',
    text: 'Chat with GPT, Claude, Gemini and Llama in tabs, with fill-in menu templates.',
    cta: 'Start chatting',
  },
];
