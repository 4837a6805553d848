// The form of a server's question, read from its requested schema: each
// kind of field the spec allows with its defaults (SEP-1034), the checks
// before Submit, the content sent, and what is refused.

import { describe, expect, it } from 'vitest';
import { formContent, formErrors, formFields, initialValues, timeLeftText, toLocalInput, urlHost, type FormValues } from './elicitation-form';

/** The reference server's (server-everything) trigger-elicitation-request schema, in part. */
const SCHEMA = {
  type: 'object',
  properties: {
    name: { title: 'String', type: 'string', description: 'Your full, legal name' },
    check: { title: 'Boolean', type: 'boolean', description: 'Agree to the terms and conditions' },
    firstLine: { title: 'String with default', type: 'string', default: 'It was a dark and stormy night.' },
    email: { title: 'String with email format', type: 'string', format: 'email' },
    homepage: { type: 'string', format: 'uri', title: 'String with uri format' },
    birthdate: { title: 'String with date format', type: 'string', format: 'date' },
    integer: { title: 'Integer', type: 'integer', minimum: 1, maximum: 100, default: 42 },
    number: { title: 'Number in range 1-1000', type: 'number', minimum: 0, maximum: 1000, default: 3.14 },
    untitledSingleSelectEnum: { type: 'string', title: 'Untitled Single Select Enum', enum: ['Monica', 'Rachel', 'Joey', 'Chandler', 'Ross', 'Phoebe'], default: 'Monica' },
    untitledMultipleSelectEnum: { type: 'array', title: 'Untitled Multiple Select Enum', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['Guitar', 'Piano', 'Violin'] }, default: ['Guitar'] },
    titledSingleSelectEnum: {
      type: 'string',
      title: 'Titled Single Select Enum',
      oneOf: [
        { const: 'hero-1', title: 'Superman' },
        { const: 'hero-2', title: 'Green Lantern' },
      ],
      default: 'hero-1',
    },
    titledMultipleSelectEnum: {
      type: 'array',
      title: 'Titled Multiple Select Enum',
      items: {
        anyOf: [
          { const: 'fish-1', title: 'Tuna' },
          { const: 'fish-2', title: 'Salmon' },
        ],
      },
      default: ['fish-1'],
    },
    legacyTitledEnum: { type: 'string', title: 'Legacy Titled Enum', enum: ['pet-1', 'pet-2'], enumNames: ['Cat', 'Dog'] },
    when: { type: 'string', format: 'date-time', title: 'When' },
  },
  required: ['name'],
};

describe('the fields of a schema', () => {
  it('reads every kind the spec allows, in order, with titles, descriptions and defaults', () => {
    const fields = formFields(SCHEMA)!;
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ['name', 'text'],
      ['check', 'boolean'],
      ['firstLine', 'text'],
      ['email', 'text'],
      ['homepage', 'text'],
      ['birthdate', 'text'],
      ['integer', 'integer'],
      ['number', 'number'],
      ['untitledSingleSelectEnum', 'single'],
      ['untitledMultipleSelectEnum', 'multi'],
      ['titledSingleSelectEnum', 'single'],
      ['titledMultipleSelectEnum', 'multi'],
      ['legacyTitledEnum', 'single'],
      ['when', 'text'],
    ]);
    const by = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(by.name).toMatchObject({ label: 'String', description: 'Your full, legal name', required: true, input: 'text' });
    expect(by.email).toMatchObject({ input: 'email', required: false });
    expect(by.homepage).toMatchObject({ input: 'url' });
    expect(by.birthdate).toMatchObject({ input: 'date' });
    expect(by.when).toMatchObject({ input: 'datetime-local' });
    expect(by.integer).toMatchObject({ min: 1, max: 100, default: 42 });
    expect(by.titledSingleSelectEnum).toMatchObject({ options: [{ value: 'hero-1', label: 'Superman' }, { value: 'hero-2', label: 'Green Lantern' }] });
    expect(by.titledMultipleSelectEnum).toMatchObject({ options: [{ value: 'fish-1', label: 'Tuna' }, { value: 'fish-2', label: 'Salmon' }] });
    expect(by.legacyTitledEnum).toMatchObject({ options: [{ value: 'pet-1', label: 'Cat' }, { value: 'pet-2', label: 'Dog' }] });
    // A property without a title is labelled by its name.
    expect(formFields({ type: 'object', properties: { city: { type: 'string' } } })![0].label).toBe('city');
  });

  it('starts from the defaults (SEP-1034), empty otherwise', () => {
    const values = initialValues(formFields(SCHEMA)!);
    expect(values).toMatchObject({
      name: '',
      check: false,
      firstLine: 'It was a dark and stormy night.',
      integer: '42',
      number: '3.14',
      untitledSingleSelectEnum: 'Monica',
      untitledMultipleSelectEnum: ['Guitar'],
      titledSingleSelectEnum: 'hero-1',
      titledMultipleSelectEnum: ['fish-1'],
      legacyTitledEnum: '',
      when: '',
    });
    const withTime = formFields({ type: 'object', properties: { at: { type: 'string', format: 'date-time', default: '2026-03-07T10:30:00Z' } } })!;
    expect(initialValues(withTime).at).toBe(toLocalInput('2026-03-07T10:30:00Z'));
  });

  it('refuses what a server may not ask: nested objects, arrays of objects, unknown formats and types', () => {
    expect(formFields({ type: 'object', properties: { a: { type: 'object', properties: {} } } })).toBeNull();
    expect(formFields({ type: 'object', properties: { a: { type: 'array', items: { type: 'object' } } } })).toBeNull();
    expect(formFields({ type: 'object', properties: { a: { type: 'string', format: 'ipv4' } } })).toBeNull();
    expect(formFields({ type: 'object', properties: { a: { type: 'null' } } })).toBeNull();
    expect(formFields({ type: 'array' })).toBeNull();
    expect(formFields('nope')).toBeNull();
    // No properties: a form with nothing but its buttons.
    expect(formFields({ type: 'object' })).toEqual([]);
  });
});

describe('before Submit', () => {
  const fields = formFields(SCHEMA)!;
  const start = initialValues(fields);
  const withValues = (v: FormValues) => ({ ...start, ...v });

  it('a required field left empty, and each field that is not what its schema takes, says why', () => {
    expect(formErrors(fields, start)).toEqual({ name: 'String is required.' });
    expect(
      formErrors(
        fields,
        withValues({ name: 'Lin', email: 'lin@', homepage: 'not a url', integer: '4.5', number: '2000', untitledMultipleSelectEnum: [], when: 'soon' }),
      ),
    ).toEqual({
      email: 'String with email format must be an email address.',
      homepage: 'String with uri format must be a web address, like https://example.com.',
      integer: 'Integer must be a whole number.',
      number: 'Number in range 1-1000 must be at most 1000.',
      when: 'When must be a date.',
    });
    expect(formErrors(fields, withValues({ name: 'Lin', integer: '0' })).integer).toBe('Integer must be at least 1.');
    expect(formErrors(fields, withValues({ name: 'Lin', untitledMultipleSelectEnum: ['Guitar', 'Piano', 'Violin', 'Drums'] })).untitledMultipleSelectEnum).toBe(
      'Choose at most 3 for Untitled Multiple Select Enum.',
    );
    const required = formFields({ type: 'object', properties: { pick: { type: 'string', title: 'Pick', enum: ['a', 'b'] }, many: { type: 'array', title: 'Many', items: { enum: ['x'] } } }, required: ['pick', 'many'] })!;
    expect(formErrors(required, initialValues(required))).toEqual({ pick: 'Choose an option for Pick.', many: 'Choose at least 1 for Many.' });
  });

  it('the content is each filled field as its type; empty optional ones are left out', () => {
    const values = withValues({ name: ' Lin ', check: true, email: 'lin@example.com', birthdate: '1990-04-01', integer: '7', when: '2026-03-07T10:30' });
    expect(formErrors(fields, values)).toEqual({});
    expect(formContent(fields, values)).toEqual({
      name: 'Lin',
      check: true,
      firstLine: 'It was a dark and stormy night.',
      email: 'lin@example.com',
      birthdate: '1990-04-01',
      integer: 7,
      number: 3.14,
      untitledSingleSelectEnum: 'Monica',
      untitledMultipleSelectEnum: ['Guitar'],
      titledSingleSelectEnum: 'hero-1',
      titledMultipleSelectEnum: ['fish-1'],
      when: new Date('2026-03-07T10:30').toISOString(),
    });
  });
});

describe('the card words', () => {
  it('the time left: minutes, then seconds in the last minute; none once it is up', () => {
    const now = Date.parse('2026-03-07T10:00:00Z');
    expect(timeLeftText('2026-03-07T10:09:00Z', now)).toBe('Answer within 9 min');
    expect(timeLeftText('2026-03-07T10:08:30Z', now)).toBe('Answer within 9 min');
    expect(timeLeftText('2026-03-07T10:00:45Z', now)).toBe('Answer within 45 s');
    expect(timeLeftText('2026-03-07T10:00:00Z', now)).toBeNull();
    expect(timeLeftText('', now)).toBeNull();
  });

  it('the host a URL question opens; none for what is not a web address', () => {
    expect(urlHost('https://pay.example.com/checkout?id=1')).toBe('pay.example.com');
    expect(urlHost('http://127.0.0.1:3001/done')).toBe('127.0.0.1:3001');
    expect(urlHost('javascript:alert(1)')).toBe('');
    expect(urlHost('nope')).toBe('');
  });
});
