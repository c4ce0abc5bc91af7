/**
 * The remote URLs a custom script would load code or data from: absolute `http(s)://` or
 * protocol-relative `//host` string literals (script tags it injects, `fetch`, analytics and chat
 * loaders). Any such literal counts: an offline bundle can't tell a loader from a harmless
 * string, and the admin can keep the script with the export's `keepRemoteAssets` option.
 */
export function remoteUrlsInScript(js: string): string[] {
  const found = new Set<string>();
  for (const m of js.matchAll(/(['"`])((?:https?:)?\/\/[a-z0-9][a-z0-9.-]*\.[a-z]{2,}[^'"`\s]*)\1/gi)) found.add(m[2]);
  return [...found];
}
