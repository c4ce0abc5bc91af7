import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { CodeBlockInput, ElementContent, RenderContext } from '../types.js';
import { renderMermaidDiagram } from '../components/renderMermaidDiagram.js';
import { parseCodeMeta } from './parseCodeMeta.js';
import { extractNotation } from './extractNotation.js';
import { TokenCache, type TokenLines } from './TokenCache.js';
import { createShikiTokenizer } from './createShikiTokenizer.js';
import { buildCodeFigure } from './buildCodeFigure.js';
import type { FencedBlock } from './scanFencedBlocks.js';
import type { CodeTokenizerThread, TokenizeRequest } from './CodeTokenizerThread.js';
import { PRELOADED_LANGUAGES } from './codeLanguages.js';

/** Bumped whenever our token format or theme mapping changes, which invalidates old cache entries. */
const TOKEN_FORMAT = 1;

/** The shiki version is part of every cache key: a grammar update must not reuse stale tokens. */
function shikiVersion(): string {
  try {
    const entry = fileURLToPath(import.meta.resolve('shiki'));
    return (JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
const HIGHLIGHTER_VERSION = `${TOKEN_FORMAT}/${shikiVersion()}`;

/** Counters that show how much work the cache saved. */
export interface HighlightStats {
  hits: number;
  misses: number;
  loadedFromDisk: number;
}

/** The build-time highlighter the pipeline calls for every fenced code block. */
export interface CodeHighlighter {
  /** Renders one fenced block (synchronously) as a code figure, or a Mermaid diagram for `mermaid`. */
  highlight(input: CodeBlockInput, ctx: RenderContext): ElementContent;
  /**
   * Tokenizes `blocks` ahead of the pages that show them (cached, and skipped when already cached):
   * tokenizing them in one run is much faster than one block at a time between other work.
   */
  prepare(blocks: Iterable<FencedBlock>): void;
  /**
   * From now on `thread` does the tokenizing: it is handed the blocks not cached yet (in the
   * order pages show them) to work through while pages render, and asked at once for any other
   * block a page shows. Their tokens are taken into the cache as they arrive. Once per highlighter.
   */
  tokenizeAhead(blocks: Iterable<FencedBlock>, thread: CodeTokenizerThread): void;
  /** Loads grammars beyond the preloaded set (e.g. every language a site uses) before rendering. */
  prepareLanguages(langs: Iterable<string>): Promise<void>;
  stats(): HighlightStats;
  /** Writes cache entries still queued (they are also flushed on the next event-loop turn). */
  flush(): void;
}

/**
 * Creates the highlighter: shiki with one CSS-variable theme (light and dark via CSS), tokens
 * cached by content hash in memory and under `cacheDir`. `languages` defaults to the ones docs
 * use most; a renderer that knows its site's fence languages passes exactly those.
 */
// size: a factory: most lines are the small closures it returns, which share its private state
export async function createCodeHighlighter(opts: { cacheDir?: string; languages?: readonly string[] } = {}): Promise<CodeHighlighter> {
  const tokenizer = await createShikiTokenizer(opts.languages ?? PRELOADED_LANGUAGES);
  const cache = new TokenCache(opts.cacheDir);
  let ahead: CodeTokenizerThread | null = null;

  const keyOf = (code: string, id: string) =>
    createHash('sha256').update(`${HIGHLIGHTER_VERSION}\0${id}\0${code}`).digest('base64url').slice(0, 32);
  const tokensFor = (code: string, id: string | null): TokenLines => {
    if (id === null) return code.split('\n').map((line) => (line ? [line] : []));
    const key = keyOf(code, id);
    // With a tokenizer thread, the tokens may be waiting in its port, or it is asked for them now.
    if (ahead && !cache.has(key)) ahead.tokenizeNow({ key, id, code }, () => cache.has(key));
    const cached = cache.get(key);
    if (cached) return cached;
    const tokens = tokenizer.tokenize(code, id);
    cache.set(key, tokens);
    return tokens;
  };

  /** The grammar id and code as highlighted of a block worth tokenizing ahead, or null. */
  const readyToTokenize = (block: FencedBlock) => {
    const lang = block.lang?.trim() || null;
    const { id } = grammarFor(lang);
    if (id === null || isDiagram(lang)) return null;
    return { id, code: extractNotation(normalized(block.value)).code };
  };
  /** A block's code as highlighted: line endings normalised, one trailing newline dropped. */
  const normalized = (value: string) => value.replace(/\r\n?/g, '\n').replace(/\n$/, '');
  /** Mermaid fences become diagrams, never highlighted code. */
  const isDiagram = (lang: string | null) => lang?.toLowerCase() === 'mermaid';
  /** The grammar a fence's language resolves to, when loaded: one that isn't can't be loaded synchronously. */
  const grammarFor = (lang: string | null) => {
    const resolved = tokenizer.resolve(lang);
    return { resolved, id: resolved && tokenizer.isLoaded(resolved) ? resolved : null };
  };

  return {
    prepare(blocks) {
      for (const block of blocks) {
        const ready = readyToTokenize(block);
        if (!ready) continue;
        try {
          tokensFor(ready.code, ready.id);
        } catch {
          // The page's own highlight call meets the same block and reports it.
        }
      }
    },
    tokenizeAhead(blocks, thread) {
      if (ahead) return;
      const requests: TokenizeRequest[] = [];
      const seen = new Set<string>();
      for (const block of blocks) {
        const ready = readyToTokenize(block);
        if (!ready) continue;
        const key = keyOf(ready.code, ready.id);
        if (seen.has(key) || cache.has(key)) continue;
        seen.add(key);
        requests.push({ key, id: ready.id, code: ready.code });
      }
      ahead = thread;
      thread.tokenize(requests, (key, json) => cache.offer(key, json));
    },
    highlight(input, ctx) {
      const lang = input.lang?.trim() || null;
      const value = normalized(input.value);
      if (isDiagram(lang)) return renderMermaidDiagram(value, ctx);
      const meta = parseCodeMeta(input.meta);
      const { code, marks } = extractNotation(value);
      // A grammar that isn't loaded shows as plain text rather than stalling or failing the page.
      const { resolved, id } = grammarFor(lang);
      let lines: TokenLines;
      try {
        lines = tokensFor(code, id);
      } catch (err) {
        ctx.report.warning(`Code block (${lang ?? 'text'}) could not be highlighted: ${(err as Error).message}`, ctx.pagePath);
        lines = tokensFor(code, null);
      }
      return buildCodeFigure({ lines, lang, meta, marks, isDiff: resolved === 'diff', ctx });
    },
    prepareLanguages: (langs) => tokenizer.load(langs),
    stats: () => ({ hits: cache.hits, misses: cache.misses, loadedFromDisk: cache.loadedFromDisk }),
    flush: () => cache.flush(),
  };
}
