// The bounds a tool's view lives within: its frame's height, and how many
// requests it may make a minute. A view is the server's code running in the
// chat: it may ask, never flood; what goes over is answered with an error
// and counted, and the reply around it streams on regardless.

/** The frame's height in CSS pixels: at least this, whatever the view asks… */
export const VIEW_MIN_HEIGHT = 60;
/** …and at most this (a taller view scrolls inside its frame). */
export const VIEW_MAX_HEIGHT = 640;
/** The height before the view says its own. */
export const VIEW_START_HEIGHT = 160;

/** Tool calls one view may make in a minute. */
export const VIEW_TOOL_CALLS_PER_MINUTE = 20;
/** Links and follow-up messages one view may ask for in a minute. */
export const VIEW_REQUESTS_PER_MINUTE = 10;

/** The height the frame takes for a view asking for `height` (null: the request says no height). */
export function clampViewHeight(height: unknown): number | null {
  if (typeof height !== 'number' || !Number.isFinite(height)) return null;
  return Math.min(VIEW_MAX_HEIGHT, Math.max(VIEW_MIN_HEIGHT, Math.ceil(height)));
}

/** At most `limit` takes in any `windowMs` (a sliding window; `now` for tests). */
export class RateWindow {
  private readonly times: number[] = [];
  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request; false when it is over the limit (it is not counted then). */
  take(): boolean {
    const t = this.now();
    while (this.times.length > 0 && this.times[0] <= t - this.windowMs) this.times.shift();
    if (this.times.length >= this.limit) return false;
    this.times.push(t);
    return true;
  }
}
