import { posix } from 'node:path';
import { pageFile, type SiteIndex } from './SiteIndex.js';

/** The outcome of resolving one link written in a page: a target that exists, or why there is none. */
export type LinkResolution = ResolvedLink | BrokenLink;

export interface ResolvedLink {
  /** What to emit: relative to the page, or unchanged for external/unsupported targets. */
  href: string;
  kind: 'external' | 'anchor' | 'page' | 'redirect' | 'file';
  /** Target page path for `page` links (for anchor checks). */
  page?: string;
  /** Fragment without `#`, if any. */
  hash?: string;
}

export interface BrokenLink {
  /** What to emit anyway: where the page would be (relative), or the link as written if it leaves the docs folder. */
  href: string;
  kind: 'broken';
  /** What is missing, for the report. */
  reason: string;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** `from` and `to` are bundle files; the result is what an `href` in `from` must say to reach `to`. */
export function relativeHref(from: string, to: string): string {
  const rel = posix.relative(posix.dirname(from), to);
  return rel === '' ? posix.basename(to) : rel;
}

/**
 * Where a path written in `fromPage` points, docs-relative (`../x` from `a/b` → `x`, `/x` → `x`).
 * The result starts with `..` when the path leaves the docs folder.
 */
export function docsPath(path: string, fromPage: string): string {
  const joined = path.startsWith('/') ? path.slice(1) : posix.join(posix.dirname(fromPage), path);
  // Only a leading `.` segment goes (normalize leaves `.` or `./`): `../x` must stay outside.
  return posix.normalize(joined).replace(/^\.(?:\/|$)/, '');
}

/**
 * Resolves a link as the hosted product would (root-relative `/x`, page-relative `x`/`../x`,
 * optional `.md`/`.mdx`/`.html` suffix, trailing slash, `dir` → `dir/index`) to a relative
 * bundle href, so the bundle works from `file://` and under any path prefix.
 */
export function resolveLink(target: string, fromPage: string, site: SiteIndex): LinkResolution {
  const raw = target.trim();
  if (raw === '') return { href: '', kind: 'anchor' };
  if (raw.startsWith('#')) return { href: raw, kind: 'anchor', page: fromPage, hash: decodeSafe(raw.slice(1)) };
  if (SCHEME.test(raw) || raw.startsWith('//')) return { href: raw, kind: 'external' };
  const m = /^([^?#]*)(\?[^#]*)?(#.*)?$/.exec(raw);
  const pathPart = decodeSafe(m?.[1] ?? raw);
  const query = m?.[2] ?? '';
  const hashPart = m?.[3] ?? '';
  const hash = hashPart ? decodeSafe(hashPart.slice(1)) : undefined;
  const fromFile = pageFile(fromPage);
  if (pathPart === '') return { href: raw, kind: 'anchor', page: fromPage, hash };
  const normal = docsPath(pathPart, fromPage);
  if (normal.startsWith('..')) return { href: raw, kind: 'broken', reason: 'points outside the docs folder' };
  const stripped = normal.replace(/\/+$/, '');
  if (site.files.has(stripped)) return { href: encodePath(relativeHref(fromFile, stripped)) + query + hashPart, kind: 'file' };
  const base = stripped.replace(/\.(?:mdx?|html?)$/i, '');
  for (const candidate of [base === '' ? 'index' : base, base === '' ? 'index' : `${base}/index`]) {
    if (site.pages.has(candidate)) {
      return { href: encodePath(relativeHref(fromFile, pageFile(candidate))) + query + hashPart, kind: 'page', page: candidate, hash };
    }
    if (site.redirects.has(candidate))
      return { href: encodePath(relativeHref(fromFile, pageFile(candidate))) + query + hashPart, kind: 'redirect' };
  }
  const guess = base === '' ? 'index' : base;
  return {
    href: encodePath(relativeHref(fromFile, pageFile(guess))) + query + hashPart,
    kind: 'broken',
    reason: `no page, redirect or file at /${stripped}`,
  };
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Percent-encodes what a URL path can't carry literally (spaces, `#`, `?`), keeping `/`. */
function encodePath(p: string): string {
  return p
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/%40/g, '@').replace(/%2B/g, '+'))
    .join('/');
}
