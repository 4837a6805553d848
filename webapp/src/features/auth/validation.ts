// SPEC §5 validation rules and messages, as pure functions.

export const MIN_PASSWORD_LENGTH = 6;
export const MIN_USERNAME_LENGTH = 3;
/** Delay before a field's error shows after it loses focus. */
export const BLUR_ERROR_DELAY_MS = 250;

export const MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters',
  usernameRequired: 'Username is required',
  usernameTooShort: 'Username must be at least 3 characters',
  fullNameRequired: 'Full name is required',
  confirmRequired: 'Please confirm your password',
  passwordsDoNotMatch: 'Passwords do not match',
} as const;

/**
 * An address mail can reach, within the server's rule (authapi's
 * deliverable): dot-separated local atoms, hostname labels that neither
 * start nor end with a hyphen, no empty parts, 254 characters at most.
 */
const EMAIL_PATTERN = /^[A-Z0-9_%+-]+(\.[A-Z0-9_%+-]+)*@([A-Z0-9]([A-Z0-9-]*[A-Z0-9])?\.)+[A-Z]{2,}$/i;
const MAX_EMAIL_LENGTH = 254;
/** The shape a sign-in needs: the server lets in accounts registered before its stricter rule. */
const SIGN_IN_EMAIL_PATTERN = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;

export function validateEmail(value: string): string | undefined {
  const v = value.trim();
  if (!v) return MESSAGES.emailRequired;
  if (v.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(v)) return MESSAGES.emailInvalid;
  return undefined;
}

function validateSignInEmail(value: string): string | undefined {
  const v = value.trim();
  if (!v) return MESSAGES.emailRequired;
  if (!SIGN_IN_EMAIL_PATTERN.test(v)) return MESSAGES.emailInvalid;
  return undefined;
}

export function validatePassword(value: string): string | undefined {
  if (!value) return MESSAGES.passwordRequired;
  if (value.length < MIN_PASSWORD_LENGTH) return MESSAGES.passwordTooShort;
  return undefined;
}

export function validateUsername(value: string): string | undefined {
  const v = value.trim();
  if (!v) return MESSAGES.usernameRequired;
  if (v.length < MIN_USERNAME_LENGTH) return MESSAGES.usernameTooShort;
  return undefined;
}

export function validateFullName(value: string): string | undefined {
  if (!value.trim()) return MESSAGES.fullNameRequired;
  return undefined;
}

export function validateConfirmPassword(confirm: string, password: string): string | undefined {
  if (!confirm) return MESSAGES.confirmRequired;
  if (confirm !== password) return MESSAGES.passwordsDoNotMatch;
  return undefined;
}

export interface LoginValues {
  email: string;
  password: string;
}
export type LoginErrors = Partial<Record<keyof LoginValues, string>>;

export function validateLogin(values: LoginValues): LoginErrors {
  const errors: LoginErrors = {};
  const email = validateSignInEmail(values.email);
  if (email) errors.email = email;
  const password = validatePassword(values.password);
  if (password) errors.password = password;
  return errors;
}

export interface RegisterValues {
  email: string;
  username: string;
  fullName: string;
  password: string;
  confirmPassword: string;
}
export type RegisterErrors = Partial<Record<keyof RegisterValues, string>>;

export function validateRegister(values: RegisterValues): RegisterErrors {
  const errors: RegisterErrors = {};
  const checks: [keyof RegisterValues, string | undefined][] = [
    ['email', validateEmail(values.email)],
    ['username', validateUsername(values.username)],
    ['fullName', validateFullName(values.fullName)],
    ['password', validatePassword(values.password)],
    ['confirmPassword', validateConfirmPassword(values.confirmPassword, values.password)],
  ];
  for (const [field, message] of checks) if (message) errors[field] = message;
  return errors;
}

export interface ForgotValues {
  email: string;
}
export type ForgotErrors = Partial<Record<keyof ForgotValues, string>>;

export function validateForgot(values: ForgotValues): ForgotErrors {
  const email = validateEmail(values.email);
  return email ? { email } : {};
}

/** A new password from a reset link: SPEC §5's password and confirmation rules. */
export interface ResetValues {
  password: string;
  confirmPassword: string;
}
export type ResetErrors = Partial<Record<keyof ResetValues, string>>;

export function validateReset(values: ResetValues): ResetErrors {
  const errors: ResetErrors = {};
  const password = validatePassword(values.password);
  if (password) errors.password = password;
  const confirm = validateConfirmPassword(values.confirmPassword, values.password);
  if (confirm) errors.confirmPassword = confirm;
  return errors;
}

export function hasErrors(errors: Record<string, string | undefined>): boolean {
  return Object.values(errors).some(Boolean);
}
