import { COPY_TOAST_MS, toast } from '../../components/notifications/notification-store';
import { copyToClipboard } from '../../lib/clipboard';

export const COPIED = 'Copied';
export const COPY_FAILED = 'Failed to copy to clipboard';

/** Copy with the SPEC §8 toasts (2 s). */
export async function copyWithToast(text: string): Promise<void> {
  if (await copyToClipboard(text)) toast.success(COPIED, { duration: COPY_TOAST_MS });
  else toast.error(COPY_FAILED, { duration: COPY_TOAST_MS });
}

let timeFormat: Intl.DateTimeFormat | undefined;

/**
 * A message's time, e.g. '14:05' (as toLocaleTimeString with these
 * options, whose every call builds the formatter anew: one is kept).
 */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  timeFormat ??= new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });
  return timeFormat.format(date);
}
