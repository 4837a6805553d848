import { describe, expect, it } from 'vitest';
import { getNotifications, toast } from '../../../components/notifications/notification-store';
import { StreamError } from '../api/frames';
import { APPROVAL_FIRST, CHAT_TOAST_ID, chatError, chatSuccess, STREAM_FAILED, streamFailure } from './toasts';

const shown = () => getNotifications().map((n) => [n.id, n.kind, n.message]);

describe('chat toasts', () => {
  it('share one id: the newest replaces the last instead of stacking', () => {
    chatSuccess('Connected to OpenAI GPT (local demo)');
    expect(shown()).toEqual([[CHAT_TOAST_ID, 'success', 'Connected to OpenAI GPT (local demo)']]);
    chatError(APPROVAL_FIRST);
    expect(shown()).toEqual([[CHAT_TOAST_ID, 'error', 'Answer the tool approval first']]);
    chatError('Stream timeout');
    expect(shown()).toEqual([[CHAT_TOAST_ID, 'error', 'Stream timeout']]);
  });

  it('stack with toasts that are not the chat’s', () => {
    toast.info('Saved');
    chatError('Connection failed');
    expect(getNotifications().map((n) => n.message)).toEqual(['Saved', 'Connection failed']);
  });
});

describe('streamFailure', () => {
  it("is the error's own message, else 'Failed to stream message'", () => {
    expect(streamFailure(new StreamError('HTTP error! status: 413, message: too long', 413))).toBe('HTTP error! status: 413, message: too long');
    expect(streamFailure(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(streamFailure(new Error(''))).toBe(STREAM_FAILED);
    expect(streamFailure('a string')).toBe(STREAM_FAILED);
    expect(streamFailure(undefined)).toBe('Failed to stream message');
  });
});
