import { EncodedTokenMetadata, INITIAL, type IGrammar, type StateStack } from '@shikijs/vscode-textmate';
import type { CodeToken } from './TokenCache.js';

/** Lines longer than this are not remembered: long lines rarely repeat, and they cost memory. */
const MAX_REMEMBERED_LINE = 400;
/** Remembered lines kept at most per tokenizer (all languages); past this, lines are only tokenized. */
const MAX_REMEMBERED = 200_000;
/** Start states remembered per line text, so a line seen in many states never costs a long search. */
const MAX_STATES_PER_LINE = 8;

/** What one line tokenized to from one grammar state. Token arrays are shared: never mutate them. */
interface Remembered {
  start: StateStack;
  tokens: CodeToken[];
  end: StateStack;
}

/**
 * The fields of vscode-textmate's state stack that decide how the following lines tokenize.
 * `StateStack.equals` leaves out the frames' own scope lists and the end-of-line capture flag,
 * which can differ between states it calls equal; reusing tokens needs exact equality.
 */
interface StateFrame {
  parent: StateFrame | null;
  depth: number;
  ruleId: number;
  endRule: string | null;
  beginRuleCapturedEOL: boolean;
  nameScopesList: { equals(other: unknown): boolean } | null;
  contentNameScopesList: { equals(other: unknown): boolean } | null;
}

function sameScopes(a: StateFrame['nameScopesList'], b: StateFrame['nameScopesList']): boolean {
  return a === b || (a !== null && b !== null && a.equals(b));
}

function sameState(x: StateStack, y: StateStack): boolean {
  let a = x as unknown as StateFrame | null;
  let b = y as unknown as StateFrame | null;
  while (a !== b) {
    if (!a || !b) return false;
    if (a.depth !== b.depth || a.ruleId !== b.ruleId || a.endRule !== b.endRule || a.beginRuleCapturedEOL !== b.beginRuleCapturedEOL)
      return false;
    if (!sameScopes(a.nameScopesList, b.nameScopesList) || !sameScopes(a.contentNameScopesList, b.contentNameScopesList)) return false;
    a = a.parent;
    b = b.parent;
  }
  return true;
}

export interface LineTokenizer {
  /** Tokenizes a block as shiki's `codeToTokensBase` does, in our token format. */
  tokenize(grammar: IGrammar, code: string): CodeToken[][];
  /** Lines served from memory rather than the grammar (for tests and profiling). */
  readonly reused: number;
}

/**
 * Tokenizes code line by line and remembers each line's tokens by its text and the grammar
 * state it started in. A line's tokens depend on nothing else, so an identical line in the same
 * state anywhere in the site is taken from memory. Docs repeat lines a great deal (imports,
 * closing braces, the same call in every version of a page): on real-world sites a large share
 * of the distinct code blocks' lines repeat a line seen before.
 *
 * The output matches shiki's `codeToTokensBase` with `tokenizeMaxLineLength` (a test compares
 * the two on every code block of real-world sites): empty and over-long lines leave the state alone.
 * `kindOf(foregroundId, fontStyle)` maps a token's theme metadata to our token, or null for plain text.
 */
// size: a factory: most lines are the small closures it returns, which share its private state
export function createLineTokenizer(opts: {
  maxLineLength: number;
  /** False: lines are only tokenized, never remembered (practice runs, whose lines never come back). */
  remember?: boolean;
  /** Longest time one line may take in the grammar before it is cut short (0: no limit; see lineTimeLimit.ts). */
  lineTimeLimitMs: number;
  kindOf: (foreground: number, fontStyle: number) => number | null;
}): LineTokenizer {
  const memory = new Map<IGrammar, Map<string, Remembered[]>>();
  let remembered = 0;
  let reused = 0;

  const tokenizeLine = (grammar: IGrammar, line: string, state: StateStack): Remembered => {
    const result = grammar.tokenizeLine2(line, state, opts.lineTimeLimitMs);
    const binary = result.tokens;
    const count = binary.length / 2;
    const out: CodeToken[] = [];
    for (let j = 0; j < count; j++) {
      const from = binary[2 * j]!;
      const to = j + 1 < count ? binary[2 * j + 2]! : line.length;
      if (from === to) continue;
      const metadata = binary[2 * j + 1]!;
      const kind = opts.kindOf(EncodedTokenMetadata.getForeground(metadata), EncodedTokenMetadata.getFontStyle(metadata));
      const text = line.substring(from, to);
      const last = out[out.length - 1];
      // Plain text is merged into the previous plain token to keep pages small.
      if (kind !== null) out.push([text, kind]);
      else if (typeof last === 'string') out[out.length - 1] = last + text;
      else out.push(text);
    }
    return { start: state, tokens: out, end: result.ruleStack };
  };

  return {
    get reused() {
      return reused;
    },
    tokenize(grammar, code) {
      let byLine = memory.get(grammar);
      if (!byLine) memory.set(grammar, (byLine = new Map()));
      let state: StateStack = INITIAL;
      const lines = code.split(/\r?\n/);
      const out: CodeToken[][] = [];
      for (const line of lines) {
        if (line === '') {
          out.push([]);
          continue;
        }
        if (opts.maxLineLength > 0 && line.length >= opts.maxLineLength) {
          out.push([line]);
          continue;
        }
        const seen = line.length <= MAX_REMEMBERED_LINE ? byLine.get(line) : undefined;
        const hit = seen?.find((r) => r.start === state || sameState(r.start, state));
        if (hit) {
          reused++;
          out.push(hit.tokens);
          state = hit.end;
          continue;
        }
        const fresh = tokenizeLine(grammar, line, state);
        if (
          opts.remember !== false &&
          line.length <= MAX_REMEMBERED_LINE &&
          remembered < MAX_REMEMBERED &&
          (seen?.length ?? 0) < MAX_STATES_PER_LINE
        ) {
          remembered++;
          if (seen) seen.push(fresh);
          else byLine.set(line, [fresh]);
        }
        out.push(fresh.tokens);
        state = fresh.end;
      }
      return out;
    },
  };
}
