export interface InitialsSource {
  full_name?: string | null;
  username?: string | null;
  email?: string | null;
}

function firstChar(word: string): string {
  // Array.from keeps surrogate pairs (emoji, astral letters) whole.
  return Array.from(word)[0] ?? '';
}

/**
 * SPEC §3: first letters of the full name's words (max 2), else the
 * username's first letter, else the email's, else 'U'. Upper-cased.
 */
export function initials(user: InitialsSource | null | undefined): string {
  const fullName = user?.full_name?.trim();
  if (fullName) {
    const letters = fullName
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map(firstChar)
      .join('');
    if (letters) return letters.toUpperCase();
  }
  const username = user?.username?.trim();
  if (username) return firstChar(username).toUpperCase();
  const email = user?.email?.trim();
  if (email) return firstChar(email).toUpperCase();
  return 'U';
}
