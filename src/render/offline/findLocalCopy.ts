/** Indexes of static files by lower-cased file name, built once per file set. */
const byName = new WeakMap<ReadonlySet<string>, Map<string, string[]>>();

/**
 * Finds the source's own copy of a remote file: the one static file whose name matches the
 * URL's last path segment (authors often keep the originals next to the docs, e.g.
 * `images/hero.png` for `https://cdn.example.com/x/hero.png`). Two candidates are ambiguous, so
 * none is chosen; a name without an extension is too weak a match to trust.
 */
export function findLocalCopy(url: string, files: ReadonlySet<string>): string | null {
  let name: string;
  try {
    name = decodeURIComponent(new URL(url, 'https://x.invalid').pathname.split('/').pop() ?? '').toLowerCase();
  } catch {
    return null;
  }
  if (!/\.[a-z0-9]{2,5}$/.test(name)) return null;
  let index = byName.get(files);
  if (!index) {
    index = new Map();
    for (const f of files) {
      const key = (f.split('/').pop() ?? f).toLowerCase();
      const list = index.get(key);
      if (list) list.push(f);
      else index.set(key, [f]);
    }
    byName.set(files, index);
  }
  const found = index.get(name);
  return found && found.length === 1 ? found[0] : null;
}
