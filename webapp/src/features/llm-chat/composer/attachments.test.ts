// The next message's attachments: each resource once, at most 10.

import { describe, expect, it } from 'vitest';
import type { MessageAttachment } from '../state/types';
import { promptAttachmentsRefusal, withAttachments } from './attachments';

const att = (uri: string, connection_id = 'c1'): MessageAttachment => ({ connection_id, uri, name: uri, mime_type: '', size: 0 });

describe('withAttachments', () => {
  it('appends the ones not attached yet, a resource once per connection', () => {
    const old = [att('a'), att('b')];
    expect(withAttachments(old, [att('b'), att('c'), att('b', 'c2'), att('c')]).map((a) => `${a.connection_id} ${a.uri}`)).toEqual([
      'c1 a',
      'c1 b',
      'c1 c',
      'c2 b',
    ]);
  });
});

describe('promptAttachmentsRefusal', () => {
  const nine = Array.from({ length: 9 }, (_, i) => att(`r${i}`));
  it('lets a prompt fill the message up to 10, counting the ones attached already once', () => {
    expect(promptAttachmentsRefusal(nine, [att('r0'), att('new')])).toBe('');
  });
  it('says so when the prompt would take the message past 10', () => {
    expect(promptAttachmentsRefusal(nine, [att('r0'), att('x'), att('y')])).toBe(
      'A message may attach at most 10 resources: this prompt adds 2 to the 9 attached already.',
    );
  });
});
