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

  /** The extensions (after the last dot of the last segment, '' for none) of `files`. */
  private readonly extensions = new Set<string>();

  /** `files`: the bundle paths of the source's own files (as copied into the bundle). */
  constructor(private readonly files: ReadonlySet<string>) {
    for (const file of files) this.extensions.add(extensionOf(file));
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
    const base = new URL(file, BASE);
    for (const m of html.matchAll(REFERENCE)) {
      for (const candidate of m[1].replace(/&amp;/g, '&').split(',')) {
        // A srcset entry is "url width"; other attributes hold one URL.
        const ref = candidate.trim().split(/\s+/)[0];
        if (!ref || ref.startsWith('#') || cannotBeAFile(ref, this.extensions)) continue;
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
}

/** The access letting in everyone either one lets in. */
function widest(a: PageAccess, b: PageAccess): PageAccess {
  if (a === 'public' || b === 'public') return 'public';
  if (a === 'signed-in' || b === 'signed-in') return 'signed-in';
  return [...new Set([...a, ...b])].sort();
}

/** What follows the last dot of a path's last segment ('' without one). */
function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1);
}

/**
 * Whether `ref` surely names none of the files, told from its extension alone: every page links
 * the whole sidebar, and parsing each link as a URL was most of what scanning a page cost. Refs
 * whose path the URL parser could still change (escapes, tabs and newlines it drops, backslashes)
 * are left to the full check.
 */
function cannotBeAFile(ref: string, extensions: ReadonlySet<string>): boolean {
  if (/[%\\\t\n\r]/.test(ref)) return false;
  const path = ref.replace(/[?#].*$/s, '');
  return !extensions.has(extensionOf(path));
}
