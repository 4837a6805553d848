import { describe, expect, it } from 'vitest';
import { filterSamplePrompts, SAMPLE_PROMPTS } from './sample-prompts';

describe('SAMPLE_PROMPTS', () => {
  it('has five previews-only prompts with unique ids', () => {
    expect(SAMPLE_PROMPTS).toHaveLength(5);
    expect(new Set(SAMPLE_PROMPTS.map((p) => p.id)).size).toBe(5);
    for (const p of SAMPLE_PROMPTS) {
      expect(p.content).toBeUndefined();
      expect(p.is_purchased).toBe(false);
      expect(Array.from(p.preview ?? '').length).toBeLessThanOrEqual(200);
      expect(p.preview).toBeTruthy();
      expect(Number.isFinite(p.price)).toBe(true);
      expect(Number.isNaN(Date.parse(p.created_at ?? ''))).toBe(false);
      expect(['business', 'writing', 'productivity', 'content-creation']).toContain(p.category?.id);
    }
  });

  it('is frozen', () => {
    expect(Object.isFrozen(SAMPLE_PROMPTS)).toBe(true);
  });
});

describe('filterSamplePrompts', () => {
  it('returns all without filters', () => {
    expect(filterSamplePrompts(SAMPLE_PROMPTS, {})).toHaveLength(5);
  });

  it('filters by category id', () => {
    const got = filterSamplePrompts(SAMPLE_PROMPTS, { categoryId: 'productivity' });
    expect(got.length).toBeGreaterThan(0);
    expect(got.every((p) => p.category?.id === 'productivity')).toBe(true);
  });

  it('searches title, description and category name, case-insensitively', () => {
    expect(filterSamplePrompts(SAMPLE_PROMPTS, { search: 'LAUNCH' }).map((p) => p.id)).toEqual(['sample-launch-plan']);
    expect(filterSamplePrompts(SAMPLE_PROMPTS, { search: 'content creation' }).map((p) => p.id)).toEqual(['sample-video-script']);
    expect(filterSamplePrompts(SAMPLE_PROMPTS, { search: 'zzz-nothing' })).toEqual([]);
  });
});
