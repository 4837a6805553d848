import { useEffect, useRef, useState } from 'react';

/**
 * After a refused submit, focus the first field marked invalid inside
 * `ref` (once its message has rendered), so keyboard and screen-reader
 * users land on the problem.
 */
export function useFocusFirstInvalid<E extends HTMLElement = HTMLDivElement>() {
  const ref = useRef<E>(null);
  const [request, setRequest] = useState(0);
  useEffect(() => {
    if (request) ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [request]);
  return { ref, focusFirstInvalid: () => setRequest((n) => n + 1) };
}
