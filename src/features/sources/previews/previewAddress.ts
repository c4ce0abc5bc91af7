import { createHash } from 'node:crypto';

/** The reserved path prefix previews are served under on their site's host. */
export const PREVIEW_PREFIX = '/_preview/';

/**
 * The slug a branch's preview is served under: the branch in lower-case letters, digits and
 * dashes, then six hex digits of a hash of site and branch, so `Feature/A` and `feature-a`, or
 * one branch name on two sites, never share a preview, and the slug is known before the
 * preview exists (an agent job writes the URL into its commit before asking for it). It is a
 * valid DNS label, for the preview host pattern.
 */
export function previewSlug(domain: string, branch: string): string {
  const readable =
    branch
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48)
      .replace(/-+$/, '') || 'branch';
  const tag = createHash('sha256').update(`${domain}\n${branch}`).digest('hex').slice(0, 6);
  return `${readable}-${tag}`;
}

/** Where a preview can be opened. */
export interface PreviewUrls {
  /** Under the reserved prefix of the site's host (always works, no DNS needed). */
  pathUrl: string;
  /** On the preview host pattern, when one is configured. */
  hostUrl: string | null;
  /** The one to hand out: the host pattern's where the admin set one up, else the path's. */
  url: string;
}

/**
 * A preview's URLs: the scheme and port of the appliance's public URL with the site's domain
 * (readers reach the site by that name), and the host pattern's `{branch}` filled with the slug.
 */
export function previewUrls(publicUrl: string, domain: string, slug: string, hostPattern: string | null): PreviewUrls {
  const base = new URL(publicUrl || `http://${domain}`);
  base.hostname = domain;
  base.pathname = `${PREVIEW_PREFIX}${slug}/`;
  base.search = '';
  base.hash = '';
  const pathUrl = base.href;
  let hostUrl: string | null = null;
  if (hostPattern) {
    const onHost = new URL(pathUrl);
    onHost.hostname = hostPattern.replace('{branch}', slug);
    onHost.pathname = '/';
    hostUrl = onHost.href;
  }
  return { pathUrl, hostUrl, url: hostUrl ?? pathUrl };
}

/** A site request that names a preview: its slug, the mount path, and the path below it. */
export interface PreviewRequestTarget {
  slug: string;
  /** The path the preview is mounted under (`/_preview/<slug>`, or '' on a preview host). */
  base: string;
  /** The request path below `base` ('' for the bare mount path, which wants a trailing slash). */
  rest: string;
}

/**
 * Which preview a site request is for, from the reserved prefix of its path or (with a host
 * pattern) its Host; null when it is a request for the live site.
 */
export function matchPreviewRequest(host: string, path: string, hostPattern: string | null): PreviewRequestTarget | null {
  if (hostPattern) {
    const at = hostPattern.indexOf('{branch}');
    const before = hostPattern.slice(0, at);
    const after = hostPattern.slice(at + '{branch}'.length);
    if (host.length > before.length + after.length && host.startsWith(before) && host.endsWith(after)) {
      const slug = host.slice(before.length, host.length - after.length);
      // Only a slug's shape (see previewSlug): a site's own name that fits the pattern stays the site's.
      if (/^[a-z0-9-]+-[0-9a-f]{6}$/.test(slug)) return { slug, base: '', rest: path };
    }
  }
  if (!path.startsWith(PREVIEW_PREFIX)) return null;
  const end = path.indexOf('/', PREVIEW_PREFIX.length);
  const slug = path.slice(PREVIEW_PREFIX.length, end < 0 ? undefined : end);
  const base = `${PREVIEW_PREFIX}${slug}`;
  return { slug, base, rest: end < 0 ? '' : path.slice(end) };
}
