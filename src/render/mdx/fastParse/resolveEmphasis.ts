import type { PhrasingContent } from 'mdast';
import { bail } from './FastPathBail.js';

/** A run of `*` or `_` whose meaning is settled only once the whole span has been read. */
export interface Delimiter {
  type: 'delimiter';
  marker: '*' | '_';
  size: number;
  open: boolean;
  close: boolean;
}

export type InlineItem = PhrasingContent | Delimiter;

// micromark's classes for the characters around a run: 1 whitespace, 2 punctuation, 0 other.
// It classifies UTF-16 code units one by one, so this does too (astral characters count as other).
const PUNCTUATION = /\p{P}|\p{S}/u;
const WHITESPACE = /\s/;

function classify(s: string, index: number): number {
  if (index < 0 || index >= s.length) return 1;
  const c = s[index];
  if (c === ' ' || c === '\n' || WHITESPACE.test(c)) return 1;
  return PUNCTUATION.test(c) ? 2 : 0;
}

/**
 * The delimiter for the run `s[start, start+size)`, with micromark's open/close rules (its
 * attention tokenizer, including the stricter intraword rule for `_`). Runs longer than two bail:
 * their pairing depends on partial matches, which the fast path does not reproduce. Runs that can
 * both open and close are kept; with runs of one or two, the "rule of three" only forbids
 * pairing runs of different sizes, which resolveEmphasis bails on anyway.
 */
export function delimiterAt(s: string, start: number, size: number): Delimiter {
  const marker = s[start] as '*' | '_';
  if (size > 2) bail('delimiter run longer than 2');
  const before = classify(s, start - 1);
  const after = classify(s, start + size);
  const leftFlanking = after === 0 || (after === 2 && before !== 0);
  const rightFlanking = before === 0 || (before === 2 && after !== 0);
  const open = marker === '*' ? leftFlanking : leftFlanking && (before !== 0 || !rightFlanking);
  const close = marker === '*' ? rightFlanking : rightFlanking && (after !== 0 || !leftFlanking);
  return { type: 'delimiter', marker, size, open, close };
}

function literal(d: Delimiter): PhrasingContent {
  return { type: 'text', value: d.marker.repeat(d.size) };
}

/** Joins neighbouring text nodes, as mdast-util-from-markdown does while it builds the tree. */
export function mergeText(nodes: PhrasingContent[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (node.type === 'text' && last?.type === 'text') out[out.length - 1] = { type: 'text', value: last.value + node.value };
    else out.push(node);
  }
  return out;
}

/**
 * Pairs the delimiters of one span (a paragraph, a link's text, a JSX element's children) into
 * emphasis and strong, nearest opener first. Only pairings that leave no choice are accepted:
 * a closer whose nearest opener has another marker or size bails. With `sealed`, the span is a
 * JSX element, whose tags micromark does not treat as a boundary for emphasis, so a delimiter
 * that could pair across its edge bails (`outerOpeners` says whether an enclosing span has
 * openers of a marker).
 */
export function resolveEmphasis(items: InlineItem[], sealed: boolean, outerOpeners: (marker: string) => boolean): PhrasingContent[] {
  const out: InlineItem[] = [];
  const openers: number[] = [];
  for (const item of items) {
    if (item.type !== 'delimiter') {
      out.push(item);
      continue;
    }
    if (item.close) {
      const top = openers.length ? (out[openers[openers.length - 1]] as Delimiter) : null;
      if (top && top.marker === item.marker) {
        if (top.size !== item.size) bail('delimiter sizes differ');
        const at = openers.pop()!;
        const children = mergeText(out.splice(at + 1) as PhrasingContent[]);
        out[at] = item.size === 2 ? { type: 'strong', children } : { type: 'emphasis', children };
        continue;
      }
      if (openers.some((o) => (out[o] as Delimiter).marker === item.marker)) bail('crossed delimiters');
      if (sealed && outerOpeners(item.marker)) bail('delimiter may pair across a JSX tag');
      // A run that can both open and close, with nothing to close, waits as an opener.
      if (item.open) openers.push(out.length);
      out.push(item.open ? item : literal(item));
    } else if (item.open) {
      openers.push(out.length);
      out.push(item);
    } else {
      out.push(literal(item));
    }
  }
  if (sealed && openers.length) bail('unpaired opener inside a JSX element');
  for (const at of openers) out[at] = literal(out[at] as Delimiter);
  return mergeText(out as PhrasingContent[]);
}
