import { useEffect } from 'react';

// Components for the timer guard's own test: one leaks, one cleans up.

export function LeakyForTests() {
  useEffect(() => {
    setTimeout(() => undefined, 60_000);
  }, []);
  return null;
}

export function TidyForTests() {
  useEffect(() => {
    const t = setTimeout(() => undefined, 60_000);
    return () => clearTimeout(t);
  }, []);
  return null;
}
