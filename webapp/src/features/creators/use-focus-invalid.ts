import { useEffect, useRef, useState } from 'react';

/**
 * After a refused save, the first field marked invalid gets the focus, so a
 * keyboard or screen-reader user lands on the problem. `refused()` asks for
 * it; the focus moves once the errors are on screen.
 */
export function useFocusInvalid<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (asked === 0) return;
    ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [asked]);
  return { ref, refused: () => setAsked((n) => n + 1) };
}

/**
 * The errors without one field's: its refusal by the API no longer holds
 * once it is edited. (Set to undefined instead, it would hide the form's
 * own check of that field where the two are merged.)
 */
export function withoutKey<E extends object>(errors: E, key: keyof E): E {
  const rest = { ...errors };
  delete rest[key];
  return rest;
}
