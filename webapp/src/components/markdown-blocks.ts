// A reply's markdown cut into top-level blocks that parse the same apart
// as together, so each is parsed once (markdown.tsx keeps the parses): a
// streaming reply then costs a parse of its last block per chunk, not of
// all its text, which grows with the reply (a parse of 1,500 characters
// with code blocks took 30 to 80 ms on a busy two-core machine: a long
// task at every chunk).
//
// A cut goes only where a block surely ends and the next surely starts
// afresh: at a blank line outside a code fence, before a line that starts
// at the margin and is not a list item or a quote (those may continue
// what came before: a loose list, a quote). Text with a link reference or
// footnote definition (`[x]: …`, `[^1]: …`) is never cut: a definition
// serves the whole text.

const FENCE = /^\s*(`{3,}|~{3,})/;
const DEFINITION = /^ {0,3}\[[^\]]+\]:/m;
/** A line that may continue the block before it after a blank line. */
const CONTINUES = /^(\s|[-*+](\s|$)|\d{1,9}[.)](\s|$)|>)/;

export function markdownBlocks(source: string): string[] {
  if (DEFINITION.test(source)) return [source];
  const lines = source.split('\n');
  const blocks: string[] = [];
  let start = 0; // the current block's first line
  let fence = ''; // the open fence's marker, '' outside one
  let blank = false; // the line before was blank (outside a fence)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const marker = FENCE.exec(line)?.[1];
    if (fence) {
      // Closed by the same character, at least as many, and nothing else.
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = '';
      continue;
    }
    if (blank && line.trim() !== '' && !CONTINUES.test(line)) {
      blocks.push(lines.slice(start, i).join('\n'));
      start = i;
    }
    if (marker) fence = marker;
    blank = line.trim() === '';
  }
  blocks.push(lines.slice(start).join('\n'));
  return blocks;
}
