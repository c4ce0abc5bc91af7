import { posix } from 'node:path';

/**
 * Finds the copy of a remote OpenAPI spec (`https://host/path/spec.json`) kept in the docs
 * source, since an offline export can't fetch it. Looked for, most specific first:
 * `openapi/<host>/<path>` (a mirror of the URL), `openapi/<file name>`, then any one file of
 * the same name elsewhere in the source (the shortest path when several match).
 * Returns the source-relative path, or undefined when there is none.
 */
export function findLocalSpecCopy(url: string, files: readonly string[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const urlPath = decodeURIComponent(parsed.pathname).replace(/^\/+/, '');
  const name = posix.basename(urlPath);
  if (!name) return undefined;
  const have = new Set(files);
  for (const candidate of [posix.join('openapi', parsed.host, urlPath), posix.join('openapi', name)]) {
    if (have.has(candidate)) return candidate;
  }
  const sameName = files.filter((f) => posix.basename(f) === name).sort((a, b) => a.length - b.length || a.localeCompare(b));
  return sameName[0];
}
