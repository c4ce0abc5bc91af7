/**
 * Static bundles can't evaluate redirect patterns at request time, so patterned redirects
 * (`/old/:slug*` → `/new/:slug*`) are expanded against the pages that exist: every page the
 * destination pattern matches gets a forwarding page at the corresponding source path.
 * Returns literal source → destination pairs; patterns that can't be expanded are reported.
 */
export function expandRedirects(
  redirects: { source: string; destination: string }[],
  pages: Iterable<string>,
  warn: (message: string) => void,
): { source: string; destination: string }[] {
  const out: { source: string; destination: string }[] = [];
  const pageList = [...pages];
  for (const r of redirects) {
    if (!/[:*]/.test(r.source)) {
      out.push(r);
      continue;
    }
    const dest = r.destination.replace(/^\/+/, '');
    const names: string[] = [];
    const pattern = dest
      .split('/')
      .map((seg) => {
        const m = /^:([A-Za-z_]\w*)(\*)?$/.exec(seg);
        if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(m[1]);
        return m[2] ? '(.+)' : '([^/]+)';
      })
      .join('/');
    const srcParams = [...r.source.matchAll(/:([A-Za-z_]\w*)\*?/g)].map((m) => m[1]);
    if (names.length === 0 || /[?#]/.test(dest) || /^[a-z]+:/i.test(r.destination) || !srcParams.every((p) => names.includes(p))) {
      warn(`redirect ${r.source} uses a pattern that a static bundle can't reproduce`);
      continue;
    }
    const re = new RegExp(`^${pattern}$`);
    for (const page of pageList) {
      const m = re.exec(page);
      if (!m) continue;
      const values = Object.fromEntries(names.map((n, i) => [n, m[i + 1]]));
      const source = r.source.replace(/:([A-Za-z_]\w*)\*?/g, (_, n: string) => values[n]);
      out.push({ source, destination: `/${page}` });
    }
  }
  return out;
}
