import { COPY_TOAST_MS, toast } from '../../components/notifications/notification-store';
import { copyToClipboard } from '../../lib/clipboard';

export const COPIED = 'Copied';
export const COPY_FAILED = 'Failed to copy to clipboard';

/** Copy with the SPEC §8 toasts (2 s). */
export async function copyWithToast(text: string): Promise<void> {
  if (await copyToClipboard(text)) toast.success(COPIED, { duration: COPY_TOAST_MS });
  else toast.error(COPY_FAILED, { duration: COPY_TOAST_MS });
}

/** A message's time, e.g. '14:05'. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}
