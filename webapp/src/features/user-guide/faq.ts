export interface FaqEntry {
  id: string;
  question: string;
  answer: string[];
}

export const SUPPORT_EMAIL = 'support@aiwork.app';

/** The user guide's 12 questions (SPEC §1, §9 FAQ claims). */
export const FAQ: readonly FaqEntry[] = [
  {
    id: 'account',
    question: 'Do I need an account?',
    answer: [
      'No account is needed to look around: the Prompt Marketplace shows a demo with sample prompts and the MCP Registry lists every server.',
      'To buy prompts, use your free prompts, rate prompts, connect to servers or chat with models, create a free account with your email or continue with Google.',
    ],
  },
  {
    id: 'free-prompts',
    question: 'How do free prompts work?',
    answer: [
      'Every new account gets 5 free prompts. Choose "Use Free" on any prompt you do not own yet and its full text is unlocked for you.',
      'Each free prompt can be used once, and unlocked prompts stay yours: free prompts do not expire. The marketplace shows how many you have left.',
    ],
  },
  {
    id: 'buying',
    question: 'How do I buy a prompt?',
    answer: [
      'Open a prompt and choose "Purchase". You are taken to a secure Stripe checkout page to pay by card; we never see or store your card details.',
      'As soon as the payment is confirmed you come back here, the full prompt is unlocked and it counts towards "Purchased Prompts" on your dashboard.',
    ],
  },
  {
    id: 'payment-methods',
    question: 'Which payment methods are accepted?',
    answer: [
      'Payments are processed by Stripe, which accepts all major credit and debit cards, including Visa, Mastercard and American Express. Prices are in US dollars.',
    ],
  },
  {
    id: 'refunds',
    question: 'Can I get a refund?',
    answer: [
      'Because a purchased prompt is unlocked and delivered immediately, refunds are generally not offered. Read the preview and description before buying.',
      'If you were charged twice or something went wrong with a payment, write to support and we will sort it out.',
    ],
  },
  {
    id: 'rating',
    question: 'Can I rate prompts?',
    answer: [
      'Yes. You can rate prompts you have purchased, from 1 to 5 stars, and change your rating later. Ratings help other users find the best prompts.',
    ],
  },
  {
    id: 'placeholders',
    question: 'How do I use a prompt once I have it?',
    answer: [
      'Open the prompt to read its full text, copy it with one click, or choose "Use in Chat" to send it straight to the LLM Chat.',
      'Words in square brackets, such as [your product], are placeholders: they are highlighted so you can replace them with your own details.',
    ],
  },
  {
    id: 'mcp-registry',
    question: 'What is the MCP Server Registry?',
    answer: [
      'The registry lists Model Context Protocol (MCP) servers: services that give AI models tools and data. Each entry shows the model type, the endpoint URL, its features and whether an API key is needed.',
      'Signed-in users can connect to a server with its default endpoint or their own URL. API keys you enter are sent only to the server you connect to and are never shown again.',
    ],
  },
  {
    id: 'chat-models',
    question: 'Which models can I chat with?',
    answer: [
      'The LLM Chat supports OpenAI (GPT-4o mini, GPT-4o, GPT-4 Turbo, GPT-3.5 Turbo), Anthropic (Claude 3.5 Sonnet, Claude 3 Opus), Google (Gemini 1.5 Pro, Gemini 1.5 Flash) and Meta (Llama 3.1 8B and 70B Instruct, Llama 3.2 1B Instruct).',
      'Open as many chat tabs as you like, each with its own model. Press Enter to send and Shift+Enter for a new line. Replies stream in as they are written.',
    ],
  },
  {
    id: 'menu-templates',
    question: 'What are menu templates?',
    answer: [
      'Some prompts contain a fill-in menu between [start menu] and [end menu]. Choose "Open in Menu" to get a form with dropdowns, dates, numbers and text fields for each variable.',
      'Fill in the values and choose "Insert & Send": the chat builds the finished message for you and sends it.',
    ],
  },
  {
    id: 'agents',
    question: 'What is the Agent Marketplace?',
    answer: [
      'An agent is a set of instructions, a model and the MCP servers whose tools it may use, with starter prompts. Browse them on the Agent Marketplace; Start chat opens a chat tab that runs as the agent. Servers you have not connected yet are listed in that tab with Connect or Sign in. A paid agent is bought like a prompt.',
    ],
  },
  {
    id: 'support',
    question: 'How do I contact support?',
    answer: [
      `Email us at ${SUPPORT_EMAIL}. We reply within 24 hours. Include the email address of your account and, for payment questions, the date and amount of the payment.`,
    ],
  },
];
