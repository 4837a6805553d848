let counter = 0;

/** A unique id with a readable prefix ('tab-…', 'msg-…'). */
export function newId(prefix: string): string {
  const random =
    typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
      ? crypto.randomUUID().slice(0, 8)
      : Math.random().toString(36).slice(2, 10);
  return `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}-${random}`;
}
