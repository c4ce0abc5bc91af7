import type { Link } from 'mdast';
import { bail } from './FastPathBail.js';

/**
 * Where micromark-extension-gfm-autolink-literal could start a literal: `www.`, `http(s)://` not
 * followed by whitespace, punctuation or the end (its domain cannot start with those), or an `@`
 * after atext. Inline source without a match holds none, and skips looking for them.
 */
export const AUTOLINK_START = /www\.|https?:\/\/(?![ \n().,;:]|$)|[\w+\-.]@/i;

/**
 * What mdast-util-gfm-autolink-literal's pass over the finished text nodes could link: a loose
 * form of its patterns (`http(s)://` or `www` then a domain with a dot; an e-mail address, which
 * its `mailto:` and `xmpp:` forms contain too), without the checks it makes before linking, so a
 * text node without a match is certainly left as it is.
 */
export const LINKABLE_TEXT = /https?:\/\/[\w-]*\.|www\.|[\w+\-.]@[\w-]+\.[\w-]/i;

/** A literal micromark links: the source it covers, `s[start, end)`, and its link node. */
export interface AutolinkLiteral {
  start: number;
  end: number;
  link: Link;
}

// micromark classifies UTF-16 code units one at a time, so these test single code units too.
const WHITESPACE = /\s/;
const PUNCTUATION = /\p{P}|\p{S}/u;
const ASCII_ALPHA = /[A-Za-z]/;
const ASCII_ALPHANUMERIC = /[A-Za-z0-9]/;
// The characters of an e-mail address's local part ("atext" in GFM's reduced form).
const ATEXT = /[A-Za-z0-9+\-._]/;
const PROTOCOL = /https?:\/\//iy;
const WWW = /www\./iy;
// Punctuation that is left out of the end of a URL when only more of it, and then an end, follows.
const TRAIL = '!"\')*,.:;?_~';
// The characters at which a path checks for such a trail (the trail's own, plus `&`, `<` and `]`).
const PATH_TRAIL_START = '!"&\')*,.:;<?]_~';

const is = (pattern: RegExp, c: string | undefined) => c !== undefined && pattern.test(c);
const isAtext = (c: string | undefined) => is(ATEXT, c);

/**
 * The autolink literal micromark reads at `s[at]`, which must be `h`, `w` (either case) or `@`,
 * or null when none starts there. `s` is the whole inline source, so the characters around `at`
 * are the ones micromark sees; `textStart` is where the current run of plain text began, which an
 * e-mail address (found at its `@`, then read from the start of its local part) must not cross.
 * The caller checks that no link or image label is open: micromark links nothing inside one.
 */
export function readAutolinkLiteral(s: string, at: number, textStart: number): AutolinkLiteral | null {
  if (s[at] === '@') return emailBefore(s, at, textStart);
  PROTOCOL.lastIndex = at;
  if (PROTOCOL.test(s)) return protocolLiteral(s, at, PROTOCOL.lastIndex);
  WWW.lastIndex = at;
  if (WWW.test(s)) return emailOverWww(s, at, textStart) ?? wwwLiteral(s, at);
  return null;
}

/**
 * The e-mail address that takes the `www.` at `at`, if any. micromark tries an address first,
 * from the start of the atext run the `www.` is in: at the `w` itself (`www.x@y.com`), or before
 * `_` the fast path has already read as delimiters (`_x_www.y@z.com`), which bails.
 */
function emailOverWww(s: string, at: number, textStart: number): AutolinkLiteral | null {
  const start = atextRunStart(s, at);
  const email = emailLiteral(s, start);
  if (email && start < textStart) bail('e-mail literal across other syntax');
  return email;
}

/** An `http://` or `https://` literal at `at`, whose domain starts at `domainStart`. */
function protocolLiteral(s: string, at: number, domainStart: number): AutolinkLiteral | null {
  // Only a letter before the protocol stops it (so `xhttp://` is no link, `(http://` is one).
  if (is(ASCII_ALPHA, s[at - 1])) return null;
  // The domain must start with something other than a control, whitespace or punctuation.
  const first = s[domainStart];
  if (first === undefined || first < ' ' || first === '\x7f' || WHITESPACE.test(first) || PUNCTUATION.test(first)) return null;
  const end = urlEnd(s, domainStart);
  return end < 0 ? null : link(s, at, end, '');
}

/** A `www.` literal at `at`. */
function wwwLiteral(s: string, at: number): AutolinkLiteral | null {
  const before = s[at - 1];
  // What may come before: whitespace, `(*_[]~`, or the start of micromark's text, which is the
  // start of `s` too (each paragraph, heading and table cell is a text of its own, so a www. at
  // the start of a cell follows no pipe).
  if (!(before === undefined || before === ' ' || before === '\t' || before === '\n' || '(*_[]~'.includes(before))) return null;
  // `www.` must be followed by something; the domain then starts again at the `w`.
  if (at + 4 >= s.length) return null;
  const end = urlEnd(s, at);
  return end < 0 ? null : link(s, at, end, 'http://');
}

/** The end of the domain and then path that start at `from`, or -1 when the domain is invalid. */
function urlEnd(s: string, from: number): number {
  const end = domainEnd(s, from);
  return end < 0 ? -1 : pathEnd(s, end);
}

/**
 * The end of a domain starting at `from`, or -1 if there is none: it runs to whitespace or
 * punctuation other than `-`, `.` and `_`, or to a `.` or `_` that begins a trail. GFM rejects
 * a domain with an `_` in its last two segments, and one without any other character.
 */
function domainEnd(s: string, from: number): number {
  let underscoreInLast = false;
  let underscoreInPenultimate = false;
  let seen = false;
  let i = from;
  for (; i < s.length; i++) {
    const c = s[i];
    if (c === '.' || c === '_') {
      if (trailAt(s, i)) break;
      if (c === '_') {
        underscoreInLast = true;
      } else {
        underscoreInPenultimate = underscoreInLast;
        underscoreInLast = false;
      }
    } else if (WHITESPACE.test(c) || (c !== '-' && PUNCTUATION.test(c))) {
      break;
    } else {
      seen = true;
    }
  }
  return seen && !underscoreInLast && !underscoreInPenultimate ? i : -1;
}

/**
 * The end of a path starting at `from` (possibly empty): it runs to whitespace or to a trail.
 * A `)` is never the start of a trail while it closes a `(` of the path.
 */
function pathEnd(s: string, from: number): number {
  let opened = 0;
  let closed = 0;
  let i = from;
  for (; i < s.length; i++) {
    const c = s[i];
    if (c === '(') {
      opened++;
    } else if (c === ')' && closed < opened) {
      closed++;
    } else if (PATH_TRAIL_START.includes(c)) {
      if (trailAt(s, i)) break;
      if (c === ')') closed++;
    } else if (WHITESPACE.test(c)) {
      break;
    }
  }
  return i;
}

/**
 * Whether `s[at...]` is a trail: trailing punctuation, `&name;` (what looks like a character
 * reference counts as punctuation here, whatever it decodes to) and `]`, up to whitespace, a `<`
 * or the end. A trail is left out of the URL; punctuation followed by anything else is kept in it.
 */
function trailAt(s: string, at: number): boolean {
  let i = at;
  for (;;) {
    const c = s[i];
    if (c === undefined || c === '<' || WHITESPACE.test(c)) return true;
    if (TRAIL.includes(c)) {
      i++;
    } else if (c === '&') {
      let j = i + 1;
      while (is(ASCII_ALPHA, s[j])) j++;
      if (j === i + 1 || s[j] !== ';') return false;
      i = j + 1;
    } else if (c === ']') {
      // `](` or `][` could start a resource or reference, so the bracket ends the URL there.
      const next = s[i + 1];
      if (next === undefined || next === '(' || next === '[' || WHITESPACE.test(next)) return true;
      i++;
    } else {
      return false;
    }
  }
}

/**
 * The e-mail literal whose `@` is `s[at]`: its local part is the run of atext before the `@`,
 * which must lie in the current text run. If the run reaches back into syntax the fast path has
 * already handled (a `_` delimiter, an escape), micromark would have read the address differently.
 */
function emailBefore(s: string, at: number, textStart: number): AutolinkLiteral | null {
  const start = atextRunStart(s, at);
  if (start < textStart) bail('e-mail literal across other syntax');
  return start === at ? null : emailLiteral(s, start);
}

/** Where the run of atext just before `s[at]` begins (`at` itself when `s[at - 1]` is no atext). */
function atextRunStart(s: string, at: number): number {
  let start = at;
  while (isAtext(s[start - 1])) start--;
  return start;
}

/**
 * An e-mail literal starting at `at`: atext, `@`, then a domain of letters, digits, `-`, `_`
 * and dots (a dot only if a letter or digit follows) that has a dot and ends in a letter. It may
 * not follow atext or `/`, so it always starts at the beginning of its local part.
 */
function emailLiteral(s: string, at: number): AutolinkLiteral | null {
  const before = s[at - 1];
  if (before === '/' || isAtext(before)) return null;
  let i = at;
  while (isAtext(s[i])) i++;
  if (i === at || s[i] !== '@') return null;
  let dot = false;
  let data = false;
  for (i++; i < s.length; i++) {
    const c = s[i];
    if (c === '.') {
      if (!is(ASCII_ALPHANUMERIC, s[i + 1])) break;
      dot = true;
    } else if (c === '-' || c === '_' || is(ASCII_ALPHANUMERIC, c)) {
      data = true;
    } else {
      break;
    }
  }
  return data && dot && is(ASCII_ALPHA, s[i - 1]) ? link(s, at, i, 'mailto:') : null;
}

/**
 * The link mdast-util-gfm-autolink-literal makes of `s[start, end)`: the source as it is, character
 * references and escapes included (micromark reads none inside a literal), with `prefix` before
 * the URL of a www. or e-mail literal.
 */
function link(s: string, start: number, end: number, prefix: string): AutolinkLiteral {
  const value = s.slice(start, end);
  return { start, end, link: { type: 'link', title: null, url: prefix + value, children: [{ type: 'text', value }] } };
}
