// The prompt preview shows a menu template ([start menu] … [end menu]) as
// the chat will offer it. The chat owns that parser (features/llm-chat/menu)
// and features do not import one another (src/test/import-boundaries.test.ts),
// so the app hands it to the pages that preview prompts (src/app/admin-route.tsx,
// src/app/creator-route.tsx) through this context: one parser, no copy. Without one the preview shows the text only.

import { createContext, useContext } from 'react';

/** A menu field as the parser reads it (structurally the chat's MenuVariable). */
export interface MenuFieldView {
  varName: string;
  label: string;
  type: string;
  options: readonly string[];
  range?: { min: number; max: number };
  constraint?: string;
}

/** A parsed menu template (structurally the chat's ParsedMenu). */
export interface MenuView {
  variables: readonly MenuFieldView[];
  before: string;
  after: string;
}

export type ReadMenu = (text: string) => MenuView | null;

const MenuReader = createContext<ReadMenu | null>(null);

export const MenuReaderProvider = MenuReader.Provider;

export function useMenuReader(): ReadMenu | null {
  return useContext(MenuReader);
}
