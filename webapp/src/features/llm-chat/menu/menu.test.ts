import { describe, expect, it } from 'vitest';
import {
  MENU_HIDDEN,
  TEMPLATE_NOTE,
  buildMenuMessage,
  defaultLabel,
  defaultValue,
  defaultValues,
  displayText,
  formatValue,
  holdsMenu,
  inputBounds,
  localDate,
  localDateTime,
  localTime,
  moveRankItem,
  parseMenu,
  parseMenuBody,
  parseRange,
  parseVariableLine,
  typeForCode,
  type MenuVariable,
} from './index';

const block = (body: string) => `[start menu]\n${body}\n[end menu]`;
const vars = (body: string) => parseMenu(block(body))!.variables;
const one = (line: string) => {
  const v = parseVariableLine(line);
  if (!v) throw new Error(`not a variable line: ${line}`);
  return v;
};

describe('typeForCode', () => {
  it.each([
    ['d', 'dropdown'],
    ['m', 'multiselect'],
    ['t', 'time'],
    ['y', 'day'],
    ['ty', 'datetime'],
    ['b', 'big'],
    ['s', 'small'],
    ['n', 'number'],
    ['r', 'rank'],
    ['D', 'dropdown'],
    ['TY', 'datetime'],
    ['x', 'small'],
    ['zz', 'small'],
    ['yt', 'small'],
  ])('%s → %s', (code, type) => {
    expect(typeForCode(code)).toBe(type);
  });
});

describe('defaultLabel', () => {
  it.each([
    ['topic', 'Topic'],
    ['target_audience', 'Target Audience'],
    ['due_date_2', 'Due Date 2'],
    ['API_key', 'API Key'],
    ['camelCase', 'CamelCase'],
    ['a__b', 'A B'],
    ['_lead', 'Lead'],
    ['x', 'X'],
  ])('%s → %s', (name, label) => {
    expect(defaultLabel(name)).toBe(label);
  });
});

describe('parseVariableLine', () => {
  it('reads code, name, constraint and label', () => {
    expect(one('y {deadline} [future] When is it due?')).toEqual({
      code: 'y',
      varName: 'deadline',
      label: 'When is it due?',
      type: 'day',
      constraint: 'future',
      options: [],
    });
  });

  it('gives the default label when the label is missing or blank', () => {
    expect(one('s {target_audience}').label).toBe('Target Audience');
    expect(one('s {target_audience}    ').label).toBe('Target Audience');
    expect(one('t {start_time} [past]').label).toBe('Start Time');
  });

  it('accepts one- and two-letter codes, in any case, with or without a space before the brace', () => {
    expect(one('ty {meeting} Meeting').type).toBe('datetime');
    expect(one('TY {meeting}').code).toBe('ty');
    expect(one('d{tone} Tone').type).toBe('dropdown');
    expect(one('  n {count}  ').varName).toBe('count');
  });

  it('allows letters, digits and underscores in the name only', () => {
    expect(one('s {A_b_9}').varName).toBe('A_b_9');
    expect(parseVariableLine('s {bad-name}')).toBeNull();
    expect(parseVariableLine('s {two words}')).toBeNull();
    expect(parseVariableLine('s {}')).toBeNull();
  });

  it('rejects codes of three letters, digits, or no code', () => {
    expect(parseVariableLine('abc {x}')).toBeNull();
    expect(parseVariableLine('1 {x}')).toBeNull();
    expect(parseVariableLine('{x} Label')).toBeNull();
    expect(parseVariableLine('just words')).toBeNull();
  });

  it('keeps a label holding brackets after the constraint', () => {
    expect(one('s {x} [past] Label [with] brackets').label).toBe('Label [with] brackets');
  });

  it('applies past/future (any case) to time, day and datetime only', () => {
    expect(one('t {a} [past]').constraint).toBe('past');
    expect(one('y {a} [FUTURE]').constraint).toBe('future');
    expect(one('ty {a} [ Past ]').constraint).toBe('past');
    expect(one('s {a} [past]').constraint).toBeUndefined();
    expect(one('n {a} [future]').constraint).toBeUndefined();
    expect(one('y {a} [tomorrow]').constraint).toBeUndefined();
  });

  it('reads a number range min-max and ignores ranges on other types', () => {
    expect(one('n {count} [1-10] How many').range).toEqual({ min: 1, max: 10 });
    expect(one('n {t} [ -5 - 5 ]').range).toEqual({ min: -5, max: 5 });
    expect(one('n {p} [0.5-2.5]').range).toEqual({ min: 0.5, max: 2.5 });
    expect(one('n {r} [10-1]').range).toEqual({ min: 1, max: 10 });
    expect(one('n {x} [ten]').range).toBeUndefined();
    expect(one('n {x}').range).toBeUndefined();
    expect(one('s {x} [1-10]').range).toBeUndefined();
    expect(one('t {x} [1-10]').constraint).toBeUndefined();
  });
});

describe('parseRange', () => {
  it.each([
    ['1-10', { min: 1, max: 10 }],
    ['0 - 100', { min: 0, max: 100 }],
    ['-3--1', { min: -3, max: -1 }],
    ['7-7', { min: 7, max: 7 }],
  ])('%s', (raw, want) => {
    expect(parseRange(raw)).toEqual(want);
  });
  it.each(['', '5', '1-', '-1', 'a-b', '1-2-3', 'past', undefined])('%s is no range', (raw) => {
    expect(parseRange(raw)).toBeNull();
  });
});

describe('parseMenu', () => {
  it('parses every code in one block', () => {
    const got = vars(
      [
        'd {tone} Tone',
        '- calm',
        '- bold',
        'm {channels}',
        '- email',
        '- chat',
        't {start} [future] Start time',
        'y {day} [past]',
        'ty {when} [future]',
        'b {notes} Notes',
        's {name}',
        'n {count} [1-5]',
        'r {priorities} Priorities',
        '- speed',
        '- cost',
        '- quality',
        'q {other} Other',
      ].join('\n'),
    );
    expect(got.map((v) => [v.varName, v.type])).toEqual([
      ['tone', 'dropdown'],
      ['channels', 'multiselect'],
      ['start', 'time'],
      ['day', 'day'],
      ['when', 'datetime'],
      ['notes', 'big'],
      ['name', 'small'],
      ['count', 'number'],
      ['priorities', 'rank'],
      ['other', 'small'],
    ]);
    expect(got[0].options).toEqual(['calm', 'bold']);
    expect(got[1].options).toEqual(['email', 'chat']);
    expect(got[8].options).toEqual(['speed', 'cost', 'quality']);
    expect(got[9].code).toBe('q');
    expect(got[3]).toMatchObject({ label: 'Day', constraint: 'past' });
    expect(got[7].range).toEqual({ min: 1, max: 5 });
  });

  it('returns the parts around the block and the block as written', () => {
    const text = 'Before {tone}\n[START MENU]\nd {tone}\n- calm\n[End Menu]\nAfter';
    const parsed = parseMenu(text)!;
    expect(parsed.before).toBe('Before {tone}\n');
    expect(parsed.after).toBe('\nAfter');
    expect(parsed.block).toBe('[START MENU]\nd {tone}\n- calm\n[End Menu]');
    expect(parsed.variables).toHaveLength(1);
  });

  it('finds markers in any case', () => {
    expect(parseMenu('[Start Menu]\ns {a}\n[END MENU]')!.variables.map((v) => v.varName)).toEqual(['a']);
    expect(parseMenu('[start MENU] s {a} [end menu]')).not.toBeNull();
  });

  it('is null without a block, with only one marker, or with the end before the start', () => {
    expect(parseMenu('plain text')).toBeNull();
    expect(parseMenu('[start menu]\ns {a}')).toBeNull();
    expect(parseMenu('s {a}\n[end menu]')).toBeNull();
    expect(parseMenu('[end menu]\ns {a}\n[start menu]')).toBeNull();
  });

  it('turns a dropdown, multiselect or rank without options into small text', () => {
    const got = vars('d {a}\nm {b}\nr {c}\ns {d}');
    expect(got.map((v) => [v.varName, v.type, v.options])).toEqual([
      ['a', 'small', []],
      ['b', 'small', []],
      ['c', 'small', []],
      ['d', 'small', []],
    ]);
    expect(got[0].code).toBe('d');
  });

  it('takes options only from "- " lines after a d, m or r line', () => {
    const got = vars('s {a}\n- ignored\nd {b}\n  - indented\n-no space\n- \n- last\ns {c}\n- not an option');
    expect(got.find((v) => v.varName === 'a')!.options).toEqual([]);
    expect(got.find((v) => v.varName === 'b')!.options).toEqual(['indented']);
    expect(got.find((v) => v.varName === 'c')!.options).toEqual([]);
  });

  it('ends an option list at a line that is not a variable or an option', () => {
    const got = vars('d {a}\n- one\nsome free text\n- two');
    expect(got[0].options).toEqual(['one']);
  });

  it('drops repeated options', () => {
    expect(vars('r {a}\n- x\n- y\n- x')[0].options).toEqual(['x', 'y']);
  });

  it('keeps blank lines inside an option list', () => {
    expect(vars('m {a}\n- one\n\n- two')[0].options).toEqual(['one', 'two']);
  });

  it('keeps the first definition of a repeated name', () => {
    const got = vars('s {a} First\nd {a} Second\n- x');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ label: 'First', type: 'small' });
  });

  it('handles CRLF line ends', () => {
    expect(parseMenuBody('d {a}\r\n- x\r\n- y\r\n').map((v) => v.options)).toEqual([['x', 'y']]);
  });

  it('uses only the first block', () => {
    const parsed = parseMenu('[start menu]\ns {a}\n[end menu]\n[start menu]\ns {b}\n[end menu]')!;
    expect(parsed.variables.map((v) => v.varName)).toEqual(['a']);
  });
});

describe('defaults', () => {
  const [tone, channels, count, free, order, name] = vars(
    'd {tone}\n- calm\n- bold\nm {channels}\n- a\n- b\nn {count} [3-9]\nn {free}\nr {order}\n- x\n- y\n- z\ns {name}',
  );
  it('dropdown: first option', () => expect(defaultValue(tone)).toBe('calm'));
  it('multiselect: empty', () => expect(defaultValue(channels)).toEqual([]));
  it('number with range: the minimum', () => expect(defaultValue(count)).toBe('3'));
  it('number without range: empty', () => expect(defaultValue(free)).toBe(''));
  it('rank: the options in order (a copy)', () => {
    const value = defaultValue(order);
    expect(value).toEqual(['x', 'y', 'z']);
    expect(value).not.toBe(order.options);
  });
  it('text: empty', () => expect(defaultValue(name)).toBe(''));
  it('defaultValues maps every name', () => {
    expect(defaultValues([tone, count, name])).toEqual({ tone: 'calm', count: '3', name: '' });
  });
  it('time, day and datetime: empty', () => {
    for (const v of vars('t {a}\ny {b}\nty {c}\nb {d}')) expect(defaultValue(v)).toBe('');
  });
});

describe('formatValue and moveRankItem', () => {
  const [multi, rank, text] = vars('m {m}\n- a\nr {r}\n- a\ns {s}');
  it('joins lists with ", " and rank with " > "', () => {
    expect(formatValue(multi, ['a', 'b', 'c'])).toBe('a, b, c');
    expect(formatValue(rank, ['c', 'a', 'b'])).toBe('c > a > b');
  });
  it('trims text and drops blank list items', () => {
    expect(formatValue(text, '  hi  ')).toBe('hi');
    expect(formatValue(multi, [' ', 'a'])).toBe('a');
    expect(formatValue(text, undefined)).toBe('');
    expect(formatValue(multi, [])).toBe('');
  });
  it('moves rank items up and down, and ignores moves past the ends', () => {
    expect(moveRankItem(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moveRankItem(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moveRankItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveRankItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});

describe('buildMenuMessage', () => {
  const TEMPLATE = [
    'Write a {tone} post about {topic} for {channels}.',
    '[start menu]',
    'd {tone} Tone',
    '- calm',
    '- bold',
    's {topic}',
    'm {channels}',
    '- email',
    '- chat',
    'r {order} Order',
    '- speed',
    '- cost',
    'n {words} [50-300] Word count',
    'b {extra_notes}',
    '[end menu]',
    'Sign it as {author}.',
  ].join('\n');
  const BLOCK = TEMPLATE.slice(TEMPLATE.indexOf('[start menu]'), TEMPLATE.indexOf('[end menu]') + '[end menu]'.length);

  it('replaces placeholders before and after the block, appends unused values, then the note and the block', () => {
    const got = buildMenuMessage(TEMPLATE, {
      tone: 'bold',
      topic: 'tides',
      channels: ['email', 'chat'],
      order: ['cost', 'speed'],
      words: '120',
      extra_notes: 'Keep it short',
    });
    expect(got).toBe(
      [
        'Write a bold post about tides for email, chat.',
        '',
        'Sign it as {author}.',
        '',
        'Order (order): cost > speed',
        'Word count (words): 120',
        'Extra Notes (extra_notes): Keep it short',
        '',
        TEMPLATE_NOTE,
        BLOCK,
      ].join('\n'),
    );
  });

  it('skips empty values: the placeholder stays and nothing is appended', () => {
    const got = buildMenuMessage(TEMPLATE, { tone: 'calm', topic: '   ', channels: [], order: ['speed', 'cost'], words: '', extra_notes: '' });
    expect(got.startsWith('Write a calm post about {topic} for {channels}.')).toBe(true);
    expect(got).not.toContain('(topic)');
    expect(got).not.toContain('(channels)');
    expect(got).not.toContain('(words)');
    expect(got).not.toContain('(extra_notes)');
    expect(got).toContain('Order (order): speed > cost');
  });

  it('replaces every occurrence of a placeholder and leaves unknown names alone', () => {
    const got = buildMenuMessage('{a} and {a} and {zz}\n[start menu]\ns {a}\n[end menu]', { a: 'x' });
    expect(got.split('\n')[0]).toBe('x and x and {zz}');
    expect(got).not.toContain('(a)');
  });

  it('does not substitute inside inserted values', () => {
    const got = buildMenuMessage('{a} {b}\n[start menu]\ns {a}\ns {b}\n[end menu]', { a: '{b}', b: 'B' });
    expect(got.split('\n')[0]).toBe('{b} B');
  });

  it('builds from a bare block: values, note, block', () => {
    const text = '[start menu]\ns {who} Who\n[end menu]';
    expect(buildMenuMessage(text, { who: 'Ada' })).toBe(`Who (who): Ada\n\n${TEMPLATE_NOTE}\n${text}`);
    expect(buildMenuMessage(text, { who: '' })).toBe(`${TEMPLATE_NOTE}\n${text}`);
  });

  it('keeps a block written in upper case as written', () => {
    const text = 'Hi {x}\n[START MENU]\ns {x}\n[END MENU]';
    expect(buildMenuMessage(text, { x: 'there' })).toBe(`Hi there\n\n${TEMPLATE_NOTE}\n[START MENU]\ns {x}\n[END MENU]`);
  });

  it('returns a text without a menu unchanged', () => {
    expect(buildMenuMessage('no menu {x}', { x: 'y' })).toBe('no menu {x}');
  });

  it('writes the note once when a built message is filled again', () => {
    const first = buildMenuMessage('Hi {x}\n[start menu]\ns {x}\n[end menu]', { x: 'A' });
    const again = buildMenuMessage(first, { x: 'B' });
    expect(again.split(TEMPLATE_NOTE)).toHaveLength(2);
    expect(again.startsWith('Hi A')).toBe(true);
  });

  it('the note says the block is the template and should be ignored', () => {
    expect(TEMPLATE_NOTE).toMatch(/template/i);
    expect(TEMPLATE_NOTE).toMatch(/ignore/i);
  });
});

describe('displayText', () => {
  const built = buildMenuMessage('Hello {x}\n[start menu]\ns {x}\n[end menu]', { x: 'world' });

  it('removes the block (and the note) from user messages', () => {
    expect(displayText(built, 'user')).toBe('Hello world');
    expect(displayText('A\n[start menu]\ns {x}\n[end menu]\nB', 'user')).toBe('A\nB');
    expect(displayText('[start menu]\ns {x}\n[end menu]', 'user')).toBe('');
  });

  it('shows [menu hidden] in assistant messages', () => {
    expect(displayText('Fill this:\n[Start Menu]\ns {x}\n[End Menu]\nThanks', 'assistant')).toBe(`Fill this:\n${MENU_HIDDEN}\nThanks`);
    expect(displayText(built, 'assistant')).toBe(`Hello world\n\n${MENU_HIDDEN}`);
  });

  it('hides every block', () => {
    const text = 'a [start menu]1[end menu] b [start menu]2[end menu] c';
    expect(displayText(text, 'assistant')).toBe(`a ${MENU_HIDDEN} b ${MENU_HIDDEN} c`);
    expect(displayText(text, 'user')).toBe('a\nb\nc');
  });

  it('leaves text without a complete block alone', () => {
    expect(displayText('x [start menu] y', 'assistant')).toBe('x [start menu] y');
    expect(displayText('[end menu] x [start menu]', 'user')).toBe('[end menu] x [start menu]');
  });

  it('holdsMenu needs both markers in order', () => {
    expect(holdsMenu(built)).toBe(true);
    expect(holdsMenu('[end menu][start menu]')).toBe(false);
    expect(holdsMenu(undefined)).toBe(false);
  });
});

describe('inputBounds', () => {
  const now = new Date(2026, 2, 7, 9, 5); // 7 March 2026, 09:05 local
  const v = (line: string): MenuVariable => one(line);

  it('formats local date, time and datetime', () => {
    expect(localDate(now)).toBe('2026-03-07');
    expect(localTime(now)).toBe('09:05');
    expect(localDateTime(now)).toBe('2026-03-07T09:05');
  });

  it('day: past sets max to today, future sets min to today', () => {
    expect(inputBounds(v('y {d} [past]'), now)).toEqual({ max: '2026-03-07' });
    expect(inputBounds(v('y {d} [future]'), now)).toEqual({ min: '2026-03-07' });
    expect(inputBounds(v('y {d}'), now)).toEqual({});
  });

  it('time and datetime do the same with the current time', () => {
    expect(inputBounds(v('t {d} [past]'), now)).toEqual({ max: '09:05' });
    expect(inputBounds(v('t {d} [future]'), now)).toEqual({ min: '09:05' });
    expect(inputBounds(v('ty {d} [past]'), now)).toEqual({ max: '2026-03-07T09:05' });
    expect(inputBounds(v('ty {d} [future]'), now)).toEqual({ min: '2026-03-07T09:05' });
  });

  it('number: the range bounds', () => {
    expect(inputBounds(v('n {d} [2-8]'), now)).toEqual({ min: '2', max: '8' });
    expect(inputBounds(v('n {d}'), now)).toEqual({});
  });

  it('other types: none', () => {
    expect(inputBounds(v('s {d} [past]'), now)).toEqual({});
  });
});
