// SPEC §9: the free-prompts bar width is used / total_allowed.

/** Bar width in percent, 0–100; 0 when the total is unknown or not positive. */
export function freeBarPercent(used: number, totalAllowed: number): number {
  if (!Number.isFinite(used) || !Number.isFinite(totalAllowed) || totalAllowed <= 0) return 0;
  return Math.min(100, Math.max(0, (used / totalAllowed) * 100));
}
