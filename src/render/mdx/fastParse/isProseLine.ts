import { JsParser } from '../jsParser.js';

/**
 * Whether a one-line block starting with `import`/`export` is prose: acorn rejects it, so
 * parseSource's retry (`proseNotEsm`) rewrites its first letter as a character reference and the
 * line parses as an ordinary paragraph. Anything acorn accepts is real ESM and not for the fast path.
 */
export function isProseLine(line: string): boolean {
  try {
    JsParser.parse(line, { ecmaVersion: 'latest', sourceType: 'module' });
    return false;
  } catch {
    return true;
  }
}
