import { decodeNamedCharacterReference } from 'decode-named-character-reference';

const DECIMAL = /&#([0-9]{1,7});/y;
const HEXADECIMAL = /&#[xX]([0-9a-fA-F]{1,6});/y;
// A named reference is one only if its name is in HTML's list (the table micromark itself uses).
const NAMED = /&([A-Za-z0-9]{1,31});/y;

/**
 * The character reference at `s[at] === '&'` as micromark decodes it: its text and the index
 * after the `;`, or null when the `&` is literal text (no reference, or a name HTML lacks).
 */
export function readCharacterReference(s: string, at: number): { value: string; end: number } | null {
  for (const [pattern, base] of [
    [DECIMAL, 10],
    [HEXADECIMAL, 16],
  ] as const) {
    pattern.lastIndex = at;
    const m = pattern.exec(s);
    if (m) return { value: decodeCodePoint(Number.parseInt(m[1], base)), end: pattern.lastIndex };
  }
  NAMED.lastIndex = at;
  const named = NAMED.exec(s);
  const value = named ? decodeNamedCharacterReference(named[1]) : false;
  return value === false ? null : { value, end: NAMED.lastIndex };
}

/**
 * The character for a numeric reference. Code points HTML forbids in references (most controls,
 * surrogates, noncharacters, beyond Unicode) become U+FFFD, following
 * micromark-util-decode-numeric-character-reference.
 */
function decodeCodePoint(code: number): string {
  const forbidden =
    code < 9 ||
    code === 11 ||
    (code > 13 && code < 32) ||
    (code > 126 && code < 160) ||
    (code > 0xd7ff && code < 0xe000) ||
    (code > 0xfdcf && code < 0xfdf0) ||
    (code & 0xfffe) === 0xfffe ||
    code > 0x10ffff;
  return forbidden ? '\uFFFD' : String.fromCodePoint(code);
}
