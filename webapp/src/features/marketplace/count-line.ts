// SPEC §2's count line, '{n} prompts found'. A count the server could only
// bound from below (a search spanning pages, which it would have to read
// whole to count) reads '48+ prompts found'; large counts are grouped
// ('1,000+').

export function countLine(count: number, exact: boolean): string {
  return `${Math.max(0, count).toLocaleString('en-US')}${exact ? '' : '+'} prompts found`;
}
