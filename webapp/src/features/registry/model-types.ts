// Model types (the registry's filter values) and their emojis, as the registry's HTTP contract names them.

import type { McpServer } from '../../lib/api/mcp-types';

export const MODEL_TYPE_EMOJI: Readonly<Record<string, string>> = {
  documentation: '📚',
  code: '💻',
  search: '🔎',
  cloud: '☁️',
  productivity: '🗂️',
  payments: '💳',
  data: '📊',
  reference: '🧪',
};

/** Any type without its own emoji. */
export const OTHER_MODEL_TYPE_EMOJI = '🧩';

export function modelTypeEmoji(type: string): string {
  return Object.hasOwn(MODEL_TYPE_EMOJI, type) ? MODEL_TYPE_EMOJI[type] : OTHER_MODEL_TYPE_EMOJI;
}

/** 'productivity' → 'Productivity', 'web-search' → 'Web search'; '' → 'Other'. */
export function modelTypeLabel(type: string): string {
  const words = type.trim().replace(/[-_]+/g, ' ').replace(/\s+/g, ' ');
  if (!words) return 'Other';
  return words[0].toUpperCase() + words.slice(1);
}

// One collator for every comparison: localeCompare builds one per call.
let collator: Intl.Collator | undefined;

/** The filter's options: the distinct non-empty model types, sorted by label. */
export function distinctModelTypes(servers: readonly Pick<McpServer, 'model_type'>[]): string[] {
  const seen = new Set<string>();
  for (const s of servers) {
    if (typeof s.model_type === 'string' && s.model_type.trim()) seen.add(s.model_type);
  }
  collator ??= new Intl.Collator();
  const { compare } = collator;
  return [...seen].sort((a, b) => compare(modelTypeLabel(a), modelTypeLabel(b)) || compare(a, b));
}
