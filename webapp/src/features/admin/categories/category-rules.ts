// Category names as the API takes them (docs/admin.md, Categories):
// 1–60 characters, unique ignoring case. The API keeps a name with its
// runs of spaces made one, and so do we before checking it.

import type { AdminCategory } from '../api/types';

export const CATEGORY_NAME_MAX = 60;

/** 'Web   design ' → 'Web design'. */
export function tidyCategoryName(name: string): string {
  return name.trim().split(/\s+/).filter(Boolean).join(' ');
}

/** Why `name` cannot be saved (as a new name, or for the category `selfId`), or null. */
export function checkCategoryName(name: string, categories: readonly AdminCategory[], selfId?: string): string | null {
  const t = tidyCategoryName(name);
  const length = [...t].length;
  if (length === 0) return 'Name is required.';
  if (length > CATEGORY_NAME_MAX) return `Name must be at most ${CATEGORY_NAME_MAX} characters (now ${length}).`;
  if (/\p{Cc}/u.test(t)) return 'Name must not contain control characters.';
  const taken = categories.find((c) => c.id !== selfId && c.name.toLowerCase() === t.toLowerCase());
  return taken ? `A category named “${taken.name}” already exists.` : null;
}
