// A filled prompt as composer text: a resource it refers to that goes with
// the message as an attachment is not named in the text as well.

import { describe, expect, it } from 'vitest';
import { promptText, type PromptMessage } from './mcp-composer';

const user = (content: Record<string, unknown>): PromptMessage => ({ role: 'user', content });

describe('promptText', () => {
  const messages = [
    user({ type: 'text', text: 'Summarise the notes.' }),
    user({ type: 'resource_link', uri: 'file:///notes.txt', name: 'notes.txt' }),
    user({ type: 'resource', resource: { uri: 'file:///data.json' } }),
    user({ type: 'resource', resource: { uri: 'file:///inline.txt', text: 'Inline text.' } }),
    user({ type: 'resource_link', uri: 'file:///other.txt', name: 'other.txt' }),
  ];

  it('leaves out the resources attached to the message, keeps an embedded text, and names the rest', () => {
    expect(promptText(messages, ['file:///notes.txt', 'file:///data.json'])).toBe(
      'Summarise the notes.\n\nInline text.\n\n[resource: file:///other.txt]',
    );
  });

  it('names every resource without contents when none is attached', () => {
    expect(promptText(messages)).toBe(
      'Summarise the notes.\n\n[resource: file:///notes.txt]\n\n[resource: file:///data.json]\n\nInline text.\n\n[resource: file:///other.txt]',
    );
  });
});
