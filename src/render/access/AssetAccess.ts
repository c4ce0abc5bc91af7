import type { PageAccess } from '../../platform/access/PageAccess.js';

/** Attributes through which a page loads or links a file of the bundle. */
const REFERENCE = /\s(?:src|href|poster|data|srcset)="([^"]*)"/g;
/** An origin no reference can name, to resolve page-relative ones against. */
const BASE = 'http://bundle.invalid/';

/**
 * Which of the source's files (images, downloads) each page references, and so who may load
 * them under reader sign-in: an asset is as open as the most open page that uses it. Used by a
 * public page (or the sign-in page), it stays public; used only by pages needing a signed-in
 * reader, it needs one too; used only by pages limited to groups, readers of any of those
 * groups may load it. Files no page references (and theme files, which are not source files)
 * are not recorded: they stay reachable as before.
 */
export class AssetAccess {
  private readonly access = new Map<string, PageAccess>();
  /** The last path segment of every file: a reference ending otherwise names none of them. */
  private readonly names: ReadonlySet<string>;

  /** `files`: the bundle paths of the source's own files (as copied into the bundle). */
  constructor(private readonly files: ReadonlySet<string>) {
    this.names = new Set([...files].map((f) => f.slice(f.lastIndexOf('/') + 1)));
  }

  /** Records the references of `html`, the bundle file `file`, a page with access `access`; returns them. */
  addPage(file: string, html: string, access: PageAccess): string[] {
    const found = [...this.referencedFiles(file, html)];
    this.addReferences(found, access);
    return found;
  }

  /** Records references found earlier (a page taken unassembled from the previous bundle). */
  addReferences(assets: readonly string[], access: PageAccess): void {
    for (const asset of assets) {
      const before = this.access.get(asset);
      this.access.set(asset, before === undefined ? access : widest(before, access));
    }
  }

  /** The assets not everyone may load, by bundle path: what `_enclave/access.json` records as `assets`. */
  restricted(): Record<string, PageAccess> {
    const out: Record<string, PageAccess> = {};
    for (const [asset, access] of [...this.access].sort(([a], [b]) => (a < b ? -1 : 1))) if (access !== 'public') out[asset] = access;
    return out;
  }

  private referencedFiles(file: string, html: string): Set<string> {
    const found = new Set<string>();
    // A source with no files of its own (many are pages only) has nothing to find.
    if (this.files.size === 0) return found;
    const base = new URL(file, BASE);
    for (const m of html.matchAll(REFERENCE)) {
      for (const candidate of m[1].replace(/&amp;/g, '&').split(',')) {
        // A srcset entry is "url width"; other attributes hold one URL.
        const ref = candidate.trim().split(/\s+/)[0];
        if (!ref || ref.startsWith('#') || !this.mayName(ref)) continue;
        let url: URL;
        try {
          url = new URL(ref, base);
        } catch {
          continue;
        }
        if (url.origin !== base.origin) continue;
        let path: string;
        try {
          path = decodeURIComponent(url.pathname).replace(/^\/+/, '');
        } catch {
          continue;
        }
        if (this.files.has(path)) found.add(path);
      }
    }
    return found;
  }

  /**
   * False when `ref` cannot resolve to one of the files, judged from its last segment alone: a
   * page links hundreds of pages (its navigation), and parsing each link as a URL was most of
   * this class's cost. Resolving only drops dot segments before it and decodes it, so a
   * reference whose decoded last segment is no file's name names no file; undecodable ones go
   * on to the full check.
   */
  private mayName(ref: string): boolean {
    const end = ref.search(/[?#]/);
    const path = (end < 0 ? ref : ref.slice(0, end)).replaceAll('\\', '/');
    let last: string;
    try {
      last = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
    } catch {
      return true;
    }
    return this.names.has(last.slice(last.lastIndexOf('/') + 1));
  }
}

/** The access letting in everyone either one lets in. */
function widest(a: PageAccess, b: PageAccess): PageAccess {
  if (a === 'public' || b === 'public') return 'public';
  if (a === 'signed-in' || b === 'signed-in') return 'signed-in';
  return [...new Set([...a, ...b])].sort();
}
