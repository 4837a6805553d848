import { toast } from '../../../components/notifications/notification-store';
import { errorMessage } from '../../../lib/api-client';
import { isAccessDenied } from './admin-access';

/** A failed admin write as an error toast with the API's detail (a 403 needs none: the page turns into the 403 page). */
export function reportFailure(error: unknown, fallback: string): void {
  if (!isAccessDenied(error)) toast.error(errorMessage(error, fallback));
}
