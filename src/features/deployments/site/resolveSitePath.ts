/** A bundle file that may answer a path; with `redirectTo`, it is answered by a 301 to that URL path instead. */
export interface SiteCandidate {
  file: string;
  redirectTo?: string;
}

/** How a request path maps onto bundle files. */
export type SitePathResolution = { kind: 'bad' } | { kind: 'hidden' } | { kind: 'candidates'; candidates: SiteCandidate[] };

/**
 * Decodes a raw URL path and lists the bundle files that may answer it, in order:
 * `/` → `index.html`; `/a/b` → `a/b`, `a/b.html`, else `a/b/index.html` via a redirect to `/a/b/`;
 * `/a/` → `a/index.html`, else `a.html` via a redirect to `/a` (bundle links are relative, so
 * a page must be served at the URL it was written for). Malformed percent-encoding or a NUL is
 * `bad` (400); `..`, `.`, empty segments, backslashes, dotfiles and the bundle's `_enclave/`
 * metadata are `hidden` (404). Nothing here touches the file system.
 */
export function resolveSitePath(rawPath: string): SitePathResolution {
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return { kind: 'bad' };
  }
  if (path.includes('\0')) return { kind: 'bad' };
  if (!path.startsWith('/') || path.includes('\\')) return { kind: 'hidden' };
  if (path === '/') return { kind: 'candidates', candidates: [{ file: 'index.html' }] };
  const trailingSlash = path.endsWith('/');
  const rel = path.slice(1, trailingSlash ? -1 : undefined);
  const segments = rel.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..' || segment.startsWith('.')) return { kind: 'hidden' };
  }
  if (segments[0] === '_enclave') return { kind: 'hidden' };
  if (trailingSlash)
    return { kind: 'candidates', candidates: [{ file: `${rel}/index.html` }, { file: `${rel}.html`, redirectTo: `/${rel}` }] };
  return {
    kind: 'candidates',
    candidates: [{ file: rel }, { file: `${rel}.html` }, { file: `${rel}/index.html`, redirectTo: `/${rel}/` }],
  };
}
