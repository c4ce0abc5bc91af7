import { bail } from './FastPathBail.js';

/**
 * The index just after the `}` closing the `{` at `start`. MDX without acorn counts braces
 * blindly (quotes and comments do not matter), so this does the same. Expressions spanning lines
 * have their line prefixes rewritten by micromark, so they are left to it.
 */
export function scanBraces(s: string, start: number): number {
  let depth = 0;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 123) depth++;
    else if (c === 125 && --depth === 0) return i + 1;
    else if (c === 10) bail('multi-line expression');
  }
  return bail('unclosed expression');
}
