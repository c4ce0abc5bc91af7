import type * as ES from 'estree-jsx';
import { JsParser } from './jsParser.js';

/** Parsed expressions by source text. Pages repeat the same small expressions (`cols={2}`, `{true}`) on every page. */
const parsed = new Map<string, ES.Expression | null | { error: string }>();
/** Entries kept at most before the cache starts afresh; longer sources are not kept at all (they rarely repeat). */
const MAX_ENTRIES = 5_000;
const MAX_CACHED_LENGTH = 500;

/**
 * Parses the text of an MDX `{…}` expression (or attribute value) to estree on demand. Returns
 * null for comment-only expressions such as `{/* note *\/}`; throws on invalid syntax. The tree is
 * shared between callers with the same source: the evaluator only reads it.
 */
export function parseExpressionSource(source: string): ES.Expression | null {
  const cacheable = source.length <= MAX_CACHED_LENGTH;
  let result = cacheable ? parsed.get(source) : undefined;
  if (result === undefined) {
    try {
      result = parse(source);
    } catch (err) {
      result = { error: (err as Error).message };
    }
    if (cacheable) {
      if (parsed.size >= MAX_ENTRIES) parsed.clear();
      parsed.set(source, result);
    }
  }
  if (result && 'error' in result) throw new SyntaxError(result.error);
  return result;
}

function parse(source: string): ES.Expression | null {
  const withoutComments = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/[^\n]*/g, '')
    .trim();
  if (withoutComments === '') return null;
  const program = JsParser.parse(`(${source}\n)`, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as ES.Program;
  const first = program.body[0];
  return first && first.type === 'ExpressionStatement' ? first.expression : null;
}
