import { bool, isRecord, num, str } from '../../../lib/api/wire';
import { idOf, versionOf } from './read-page';
import type { AdminCategory, AdminPrompt } from './types';

export function readPrompt(v: unknown): AdminPrompt | null {
  const id = idOf(v);
  if (id === null || !isRecord(v)) return null;
  const stats = isRecord(v.stats) ? v.stats : {};
  return {
    id,
    title: str(v.title),
    description: str(v.description),
    content: str(v.content),
    price: num(v.price),
    category_id: typeof v.category_id === 'number' ? String(v.category_id) : str(v.category_id),
    category_name: str(v.category_name),
    featured: bool(v.featured),
    published: bool(v.published),
    created_at: str(v.created_at),
    updated_at: str(v.updated_at),
    version: versionOf(v.version),
    stats: {
      free_uses: num(stats.free_uses),
      purchases: num(stats.purchases),
      revenue: num(stats.revenue),
      rating_avg: num(stats.rating_avg),
      rating_count: num(stats.rating_count),
    },
  };
}

export function readCategory(v: unknown): AdminCategory | null {
  const id = idOf(v);
  if (id === null || !isRecord(v)) return null;
  return { id, name: str(v.name), prompt_count: num(v.prompt_count) };
}
