import { describe, expect, it } from 'vitest';
import {
  validateConfirmPassword,
  validateEmail,
  validateFullName,
  validateLogin,
  validatePassword,
  validateForgot,
  validateRegister,
  validateReset,
  validateUsername,
} from './validation';

describe('email', () => {
  it("requires a value: 'Email is required'", () => {
    expect(validateEmail('')).toBe('Email is required');
    expect(validateEmail('   ')).toBe('Email is required');
  });

  it.each([
    'plainaddress',
    'a@b',
    '@example.com',
    'a@.com',
    'a b@example.com',
    'a@example.c',
    'a@@example.com',
    // Addresses the server refuses: mail could never reach them.
    '<svg/onload=alert(1)>@x.io',
    'a"><img/src=x/onerror=alert(1)>@x.io',
    'a@x.io.',
    '"a.b"@x.io',
    'a..b@x.io',
    '.a@x.io',
    'a.@x.io',
    'a@x..io',
    'a@-x.io',
    'a@x-.io',
    `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(59)}.io`,
  ])(
    "rejects %j: 'Invalid email address'",
    (value) => {
      expect(validateEmail(value)).toBe('Invalid email address');
    },
  );

  it.each(['a@example.com', 'first.last+tag@sub.example.co.uk', '  padded@example.org  ', 'UPPER@EXAMPLE.COM', 'a@xn--bcher-kva.example', 'x@my-host.io'])(
    'accepts %j',
    (value) => {
      expect(validateEmail(value)).toBeUndefined();
    },
  );

  it('signs in an address registered before the stricter rule', () => {
    expect(validateLogin({ email: 'a..b@x.io', password: 'secret1' })).toEqual({});
  });
});

describe('password', () => {
  it("requires a value: 'Password is required'", () => {
    expect(validatePassword('')).toBe('Password is required');
  });

  it("needs at least 6 characters: 'Password must be at least 6 characters'", () => {
    expect(validatePassword('12345')).toBe('Password must be at least 6 characters');
    expect(validatePassword('123456')).toBeUndefined();
  });
});

describe('username', () => {
  it("requires a value: 'Username is required'", () => {
    expect(validateUsername('')).toBe('Username is required');
    expect(validateUsername('  ')).toBe('Username is required');
  });

  it("needs at least 3 characters: 'Username must be at least 3 characters'", () => {
    expect(validateUsername('ab')).toBe('Username must be at least 3 characters');
    expect(validateUsername('abc')).toBeUndefined();
  });
});

describe('full name', () => {
  it("requires a value: 'Full name is required'", () => {
    expect(validateFullName('')).toBe('Full name is required');
    expect(validateFullName('   ')).toBe('Full name is required');
    expect(validateFullName('Ada Lovelace')).toBeUndefined();
  });
});

describe('confirm password', () => {
  it("requires a value: 'Please confirm your password'", () => {
    expect(validateConfirmPassword('', 'secret1')).toBe('Please confirm your password');
  });

  it("must equal the password: 'Passwords do not match'", () => {
    expect(validateConfirmPassword('secret2', 'secret1')).toBe('Passwords do not match');
    expect(validateConfirmPassword('secret1', 'secret1')).toBeUndefined();
  });
});

describe('validateLogin', () => {
  it('reports both fields when empty', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
  });

  it('is empty for valid input', () => {
    expect(validateLogin({ email: 'a@example.com', password: 'secret1' })).toEqual({});
  });
});

describe('validateRegister', () => {
  it('reports every field when empty', () => {
    expect(validateRegister({ email: '', username: '', fullName: '', password: '', confirmPassword: '' })).toEqual({
      email: 'Email is required',
      username: 'Username is required',
      fullName: 'Full name is required',
      password: 'Password is required',
      confirmPassword: 'Please confirm your password',
    });
  });

  it('reports too-short values and a mismatch', () => {
    expect(validateRegister({ email: 'bad', username: 'ab', fullName: 'A', password: '123', confirmPassword: '1234' })).toEqual({
      email: 'Invalid email address',
      username: 'Username must be at least 3 characters',
      password: 'Password must be at least 6 characters',
      confirmPassword: 'Passwords do not match',
    });
  });

  it('is empty for valid input', () => {
    expect(
      validateRegister({ email: 'a@example.com', username: 'ada', fullName: 'Ada L', password: 'secret1', confirmPassword: 'secret1' }),
    ).toEqual({});
  });
});

describe('validateForgot', () => {
  it("uses SPEC's email messages", () => {
    expect(validateForgot({ email: '' })).toEqual({ email: 'Email is required' });
    expect(validateForgot({ email: 'nope' })).toEqual({ email: 'Invalid email address' });
    expect(validateForgot({ email: ' a@example.com ' })).toEqual({});
  });
});

describe('validateReset', () => {
  it("uses SPEC's password and confirmation messages", () => {
    expect(validateReset({ password: '', confirmPassword: '' })).toEqual({
      password: 'Password is required',
      confirmPassword: 'Please confirm your password',
    });
    expect(validateReset({ password: '12345', confirmPassword: '12346' })).toEqual({
      password: 'Password must be at least 6 characters',
      confirmPassword: 'Passwords do not match',
    });
    expect(validateReset({ password: 'secret1', confirmPassword: 'secret1' })).toEqual({});
  });
});
