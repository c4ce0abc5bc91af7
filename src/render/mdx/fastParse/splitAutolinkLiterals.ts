import type { Link, PhrasingContent } from 'mdast';
import { bail } from './FastPathBail.js';

/**
 * Where a GFM autolink literal (www., http(s)://, an e-mail address, mailto:/xmpp:) could begin.
 * `http(s)://` followed by a space, the end, or punctuation such as `)` links nothing, in micromark
 * (the domain must start with a letter or digit) or in mdast-util-gfm-autolink-literal (which
 * wants a dot in the domain and no punctuation first), so `(https://)` is plain text.
 */
export const AUTOLINK_START = /www\.|https?:\/\/(?![ \n().,;:]|$)|[\w+\-.]@|mailto:|xmpp:/i;
const STARTS = new RegExp(AUTOLINK_START.source, 'gi');
// The URLs the fast path links itself: ASCII, and free of what micromark treats specially in or
// after a URL (parentheses, `&`, `*`, `_`, `~`, brackets, quotes, `!`, `<`, `@`).
const SIMPLE_URL = /^(?:https?:\/\/|www\.)[A-Za-z0-9][A-Za-z0-9\-.:/?#%+=,;]*$/i;
// What micromark leaves out of the link at its end (its "trail"), for the characters SIMPLE_URL allows.
const TRAIL = /[.,:;?]+$/;

/**
 * The text `s[start, end)` (one run of plain text outside any link label) as text and link
 * nodes, with its `http://`, `https://` and `www.` literals linked as
 * micromark-extension-gfm-autolink-literal links them. Only the plain shape is handled: a URL
 * after a space or a line start, running to the next space or line end inside this run, made
 * of SIMPLE_URL's characters; trailing `.,:;?` stay text. Everything else (e-mail addresses,
 * parentheses, a URL touching other syntax) bails.
 */
export function splitAutolinkLiterals(s: string, start: number, end: number): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let textFrom = start;
  STARTS.lastIndex = start;
  for (let m = STARTS.exec(s); m && m.index < end; m = STARTS.exec(s)) {
    const at = m.index;
    const www = m[0].toLowerCase() === 'www.';
    const before = s[at - 1];
    // micromark's rules for the character before differ for www. and http(s); a space or a line
    // start satisfies both (a www. at the very start could sit after a table pipe, so it bails).
    if (!(before === ' ' || before === '\n' || (before === undefined && !www))) bail('autolink literal');
    let stop = at;
    while (stop < s.length && s[stop] !== ' ' && s[stop] !== '\n') stop++;
    if (stop > end) bail('autolink literal touching other syntax');
    const candidate = s.slice(at, stop);
    if (!SIMPLE_URL.test(candidate)) bail('autolink literal');
    const url = candidate.replace(TRAIL, '');
    if (at > textFrom) out.push({ type: 'text', value: s.slice(textFrom, at) });
    out.push({ type: 'link', title: null, url: www ? `http://${url}` : url, children: [{ type: 'text', value: url }] } satisfies Link);
    textFrom = at + url.length;
    STARTS.lastIndex = textFrom;
  }
  if (end > textFrom) out.push({ type: 'text', value: s.slice(textFrom, end) });
  return out;
}
