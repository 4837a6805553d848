// An in-memory stand-in for the creators API in page tests
// (docs/creators.md): the profile, onboarding, the prompts with their
// versions and states, and the dashboard. Tests change `state` directly to
// set the scene, and replace a route to make the API refuse.

import type { FakeApi } from './fake-api';
import { jsonResponse } from './jwt-fixtures';
import type { CreatorDashboard, CreatorProfile } from '../lib/api/use-creator';
import type { CreatorPrompt } from '../features/creators/api/types';

export interface CreatorsState {
  profile: CreatorProfile | null;
  prompts: CreatorPrompt[];
  dashboard: CreatorDashboard;
  onboardingUrl: string;
}

export const CATEGORIES = [
  { id: 'writing', name: 'Writing' },
  { id: 'sales', name: 'Sales' },
];

export function creatorProfile(extra: Partial<CreatorProfile> = {}): CreatorProfile {
  return {
    username: 'ada',
    display_name: 'Ada L.',
    bio: 'I write prompts.',
    country: 'GB',
    suspended: false,
    payouts: { status: 'none', charges_enabled: false, payouts_enabled: false },
    ...extra,
  };
}

export function creatorPrompt(extra: Partial<CreatorPrompt> = {}): CreatorPrompt {
  return {
    id: 'p-1',
    title: 'Cold email',
    description: 'Writes a cold email.',
    content: 'Write a cold email to [name].',
    price: 9.99,
    category_id: 'sales',
    category_name: 'Sales',
    state: 'draft',
    review_reason: null,
    version: 1,
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
    purchases: 0,
    free_uses: 0,
    rating_avg: 0,
    rating_count: 0,
    published_versions: 0,
    pending: null,
    ...extra,
  };
}

export const NO_SALES: CreatorDashboard = { sales: 0, gross: 0, fees: 0, net: 0, refunds: 0, prompts: [] };

const BASE = '/api/v1/creators/me';

export function fakeCreatorsApi(api: FakeApi, initial: Partial<CreatorsState> = {}): CreatorsState {
  const state: CreatorsState = { profile: null, prompts: [], dashboard: NO_SALES, onboardingUrl: 'https://connect.stripe.test/setup/acct_1', ...initial };
  let n = state.prompts.length;
  const notCreator = () => jsonResponse(404, { detail: 'You are not a creator yet: save your creator profile first.', code: 'not_found' });
  const notFound = () => jsonResponse(404, { detail: 'Prompt not found.', code: 'not_found' });
  const stale = (p: CreatorPrompt) =>
    jsonResponse(409, { detail: 'This prompt changed since you opened it; here it is as it is now.', code: 'conflict', current: p });
  const categoryName = (id: string) => CATEGORIES.find((c) => c.id === id)?.name ?? '';

  api.route('GET /api/v1/prompts/categories', () => jsonResponse(200, CATEGORIES));
  api.route(`GET ${BASE}`, () => (state.profile ? jsonResponse(200, state.profile) : notCreator()));
  api.route(`PUT ${BASE}`, ({ body }) => {
    const b = body as { display_name: string; bio: string; country: string };
    state.profile = { ...(state.profile ?? creatorProfile()), display_name: b.display_name, bio: b.bio, country: b.country };
    return jsonResponse(200, state.profile);
  });
  api.route(`POST ${BASE}/onboarding`, () => (state.profile ? jsonResponse(200, { url: state.onboardingUrl }) : jsonResponse(409, { detail: 'You are not a creator yet.' })));
  api.route(`GET ${BASE}/dashboard`, () => (state.profile ? jsonResponse(200, state.dashboard) : notCreator()));
  api.route(`GET ${BASE}/prompts`, () => jsonResponse(200, { items: state.prompts }));

  const routePrompt = (id: string) => {
    const find = () => state.prompts.find((p) => p.id === id);
    api.route(`PATCH ${BASE}/prompts/${id}`, ({ body }) => {
      const cur = find();
      if (!cur) return notFound();
      const b = body as Partial<CreatorPrompt> & { version: number; change_note?: string };
      if (b.version !== cur.version) return stale(cur);
      if (cur.state === 'in_review') return jsonResponse(409, { detail: 'This prompt is in review: you can edit it once it is approved or rejected.' });
      const fields = { title: b.title!, description: b.description!, content: b.content!, price: b.price!, category_id: b.category_id! };
      let next: CreatorPrompt;
      if (cur.state === 'published') {
        if (!b.change_note?.trim()) return jsonResponse(400, { detail: 'change_note is required: say what changed, for your buyers.', code: 'invalid' });
        next = { ...cur, version: cur.version + 1, pending: { ...fields, change_note: b.change_note, state: 'draft', review_reason: null } };
      } else next = { ...cur, ...fields, category_name: categoryName(fields.category_id), version: cur.version + 1 };
      state.prompts = state.prompts.map((p) => (p.id === id ? next : p));
      return jsonResponse(200, next);
    });
    api.route(`POST ${BASE}/prompts/${id}/submit`, () => {
      const cur = find();
      if (!cur) return notFound();
      if (cur.state === 'in_review') return jsonResponse(409, { detail: 'This prompt is already in review.' });
      const next: CreatorPrompt =
        cur.state === 'published'
          ? { ...cur, version: cur.version + 1, pending: cur.pending ? { ...cur.pending, state: 'in_review', review_reason: null } : null }
          : { ...cur, state: 'in_review', review_reason: null, version: cur.version + 1 };
      state.prompts = state.prompts.map((p) => (p.id === id ? next : p));
      return jsonResponse(200, next);
    });
    api.route(`DELETE ${BASE}/prompts/${id}`, ({ url }) => {
      const cur = find();
      if (!cur) return notFound();
      if (url.searchParams.get('version') !== String(cur.version)) return stale(cur);
      state.prompts = state.prompts.filter((p) => p.id !== id);
      return new Response(null, { status: 204 });
    });
  };
  for (const p of state.prompts) routePrompt(p.id);

  api.route(`POST ${BASE}/prompts`, ({ body }) => {
    const b = body as CreatorPrompt;
    if (!CATEGORIES.some((c) => c.id === b.category_id)) return jsonResponse(400, { detail: `category "${b.category_id}" does not exist`, code: 'invalid' });
    const p = creatorPrompt({
      id: `p-new-${++n}`,
      title: b.title,
      description: b.description,
      content: b.content,
      price: b.price,
      category_id: b.category_id,
      category_name: categoryName(b.category_id),
    });
    state.prompts = [p, ...state.prompts];
    routePrompt(p.id);
    return jsonResponse(201, p);
  });
  return state;
}
