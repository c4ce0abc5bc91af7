import { isAbsolute, relative, resolve } from 'node:path';

/** True when `path` is `dir` or below it. */
export function isPathInside(dir: string, path: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
