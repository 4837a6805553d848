import { describe, expect, it } from 'vitest';
import { markdownBlocks } from './markdown-blocks';

const cut = (source: string) => {
  const blocks = markdownBlocks(source);
  expect(blocks.join('\n')).toBe(source); // nothing lost or added
  return blocks;
};

describe('markdownBlocks', () => {
  it('cuts at blank lines before a paragraph, a heading, a fence, a table or a rule', () => {
    expect(cut('One.\n\n# Two\n\nThree.\n\n```go\nx\n```\n\n| a |\n|---|\n\n---')).toEqual([
      'One.\n',
      '# Two\n',
      'Three.\n',
      '```go\nx\n```\n',
      '| a |\n|---|\n',
      '---',
    ]);
  });

  it('never inside a code fence, blank lines and all; a longer or other fence does not close it', () => {
    const source = 'Code:\n\n````md\n```\n\nnot closed\n\n~~~\n````\n\nAfter.';
    expect(cut(source)).toEqual(['Code:\n', '````md\n```\n\nnot closed\n\n~~~\n````\n', 'After.']);
  });

  it('an unclosed fence (a reply still streaming) runs to the end', () => {
    expect(cut('Start.\n\n```js\nlet a;\n\nlet b;')).toEqual(['Start.\n', '```js\nlet a;\n\nlet b;']);
  });

  it('not before what may continue the block above: list items, indented lines, quotes', () => {
    expect(cut('- a\n\n- b\n\n  more of b\n\n1. one\n\n2) two\n\n> quote\n\n> more\n\n    indented code')).toHaveLength(1);
  });

  it('not at all when a link reference or footnote definition serves the whole text', () => {
    expect(cut('See [the docs][d].\n\nMore.\n\n[d]: https://example.com')).toHaveLength(1);
    expect(cut('A claim.[^1]\n\nMore.\n\n[^1]: The source.')).toHaveLength(1);
  });

  it('a single block, and the empty text, stay whole', () => {
    expect(cut('Just one line')).toEqual(['Just one line']);
    expect(cut('')).toEqual(['']);
  });
});
