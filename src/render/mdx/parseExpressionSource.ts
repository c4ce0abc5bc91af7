import type * as ES from 'estree-jsx';
import { JsParser } from './jsParser.js';

/**
 * Parses the text of an MDX `{…}` expression (or attribute value) to estree on demand. Returns
 * null for comment-only expressions such as `{/* note *\/}`; throws on invalid syntax.
 */
export function parseExpressionSource(source: string): ES.Expression | null {
  const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '').trim();
  if (withoutComments === '') return null;
  const program = JsParser.parse(`(${source}\n)`, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as ES.Program;
  const first = program.body[0];
  return first && first.type === 'ExpressionStatement' ? first.expression : null;
}
