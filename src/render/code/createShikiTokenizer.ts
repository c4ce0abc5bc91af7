// shiki's core, its language list and its oniguruma engine, not the `shiki` bundle: the bundle also
// loads the JavaScript regex engine (memory in every export worker, unused).
import {
  applyColorReplacements,
  createCssVariablesTheme,
  createHighlighterCore,
  resolveColorReplacements,
  type HighlighterCore,
} from 'shiki/core';
import { createOnigurumaEngine } from 'shiki/engine/oniguruma';
import { bundledLanguages, bundledLanguagesInfo, type BundledLanguage } from 'shiki/langs';
import type { TokenLines } from './TokenCache.js';
import { EXTRA_ALIASES, PLAIN_LANGUAGES } from './codeLanguages.js';
import { lineTimeLimitMs } from './lineTimeLimit.js';
import { createLineTokenizer } from './tokenizeLines.js';

/** Token kinds of the CSS-variables theme; a token's kind index is stored in the cache, its class is `ec-<kind>`. */
export const TOKEN_KINDS = [
  'constant',
  'string',
  'comment',
  'keyword',
  'parameter',
  'function',
  'string-expression',
  'punctuation',
  'link',
  'inserted',
  'deleted',
  'changed',
] as const;
const KIND_BY_VAR = new Map<string, number>(TOKEN_KINDS.map((k, i) => [`var(--ec-token-${k})`, i]));
/** fontStyle bits (italic 1, bold 2, underline 4) are stored above the kind index. */
export const FONT_STYLE_SHIFT = 16;

// One theme whose colours are CSS variables: a single tokenizer pass serves both the light and
// the dark palette (defined in components.css), half the work of two real themes.
export const HIGHLIGHT_THEME = createCssVariablesTheme({ name: 'enclave', variablePrefix: '--ec-', fontStyle: true });

/** Lines longer than this are left untokenized (minified blobs would dominate build time). */
const MAX_LINE_LENGTH = 5_000;
/** Blocks larger than this are shown as plain text. */
const MAX_BLOCK_CHARS = 300_000;

/** Every name shiki knows (ids and aliases) mapped to its language id. */
const KNOWN = new Map<string, string>();
for (const info of bundledLanguagesInfo) {
  KNOWN.set(info.id, info.id);
  for (const alias of info.aliases ?? []) KNOWN.set(alias, info.id);
}

/** Shiki wrapped for synchronous use: tokenizes with already-loaded grammars only. */
export interface ShikiTokenizer {
  /** The language id a fence name resolves to, or null for plain text / unknown. */
  resolve(lang: string | null): string | null;
  /** True when the language's grammar is loaded, so `tokenize` can use it. */
  isLoaded(id: string): boolean;
  tokenize(code: string, id: string): TokenLines;
  /** Lines taken from memory rather than tokenized again (see `createLineTokenizer`). */
  reusedLines(): number;
  /** Loads more bundled grammars (unknown names are ignored). */
  load(langs: Iterable<string>): Promise<void>;
}

let shared: Promise<HighlighterCore> | undefined;

/**
 * Creates (once per process) shiki with the oniguruma engine from its bundled wasm: no network,
 * no native code. `langs` are loaded up front; compiling a grammar costs tens of milliseconds,
 * so callers pass only what the site uses (see `prepareLanguages`).
 */
export async function createShikiTokenizer(
  langs: readonly string[],
  opts: { rememberLines?: boolean; lineTimeLimitMs?: number } = {},
): Promise<ShikiTokenizer> {
  shared ??= createHighlighterCore({ themes: [HIGHLIGHT_THEME], langs: [], engine: createOnigurumaEngine(import('shiki/wasm')) });
  const highlighter = await shared;
  const loaded = new Set(highlighter.getLoadedLanguages());
  const tokenizer = buildTokenizer(highlighter, loaded, opts.rememberLines ?? true, opts.lineTimeLimitMs ?? lineTimeLimitMs());
  await tokenizer.load(langs);
  return tokenizer;
}

function buildTokenizer(highlighter: HighlighterCore, loaded: Set<string>, rememberLines: boolean, timeLimitMs: number): ShikiTokenizer {
  // Our token for each of the theme's colours, looked up by the colour id in the token metadata.
  // (The CSS-variables theme stands placeholder colours in for its variables.)
  const { theme, colorMap } = highlighter.setTheme(HIGHLIGHT_THEME.name!);
  const replacements = resolveColorReplacements(theme);
  const kindByColor = colorMap.map((color) => KIND_BY_VAR.get(applyColorReplacements(color, replacements) ?? ''));
  const lines = createLineTokenizer({
    maxLineLength: MAX_LINE_LENGTH,
    remember: rememberLines,
    lineTimeLimitMs: timeLimitMs,
    kindOf(foreground, fontStyle) {
      const kind = kindByColor[foreground];
      if (kind === undefined && fontStyle <= 0) return null;
      return (kind ?? 0xffff) + Math.max(fontStyle, 0) * (1 << FONT_STYLE_SHIFT);
    },
  });
  const resolve = (lang: string | null): string | null => {
    const name = (lang ?? '').trim().toLowerCase();
    if (PLAIN_LANGUAGES.has(name)) return null;
    return KNOWN.get(EXTRA_ALIASES[name] ?? name) ?? null;
  };
  return {
    resolve,
    isLoaded: (id) => loaded.has(id),
    tokenize(code, id) {
      if (code.length > MAX_BLOCK_CHARS) return code.split('\n').map((l) => (l ? [l] : []));
      return lines.tokenize(highlighter.getLanguage(id), code);
    },
    reusedLines: () => lines.reused,
    async load(langs) {
      const wanted = new Set<string>();
      for (const l of langs) {
        const id = resolve(l);
        if (id && !loaded.has(id)) wanted.add(id);
      }
      if (wanted.size === 0) return;
      await highlighter.loadLanguage(...[...wanted].map((id) => bundledLanguages[id as BundledLanguage]));
      for (const l of highlighter.getLoadedLanguages()) loaded.add(l);
    },
  };
}
