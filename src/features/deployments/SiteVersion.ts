import type { VersionAccess } from './site/VersionAccess.js';
import { openVersionFile } from './site/openVersionFile.js';

/** One stored representation of a served file (identity, gzip or brotli). */
export interface FileVariant {
  absPath: string;
  size: number;
  etag: string;
  /** The bytes, once read (small files only; see SiteVersion.cacheBudget). */
  body?: Buffer;
  loading?: Promise<Buffer>;
  /** Response headers, built on first use (see createSiteHandler): as a page (200), as the 404 page, and for a 304. */
  headers?: { ok?: string[]; notFound?: string[]; notModified?: string[] };
}

/** Everything needed to answer a request for one file, computed at activation. */
export interface ServedFile {
  path: string;
  contentType: string;
  cacheControl: string;
  identity: FileVariant;
  gzip?: FileVariant;
  br?: FileVariant;
  /** CSP hashes of the inline scripts of an HTML page. */
  scriptHashes?: string[];
  /** An API page with a "Try it" form, by the manifest: the origins its spec names (see siteSecurityPolicy). */
  tryItOrigins?: string[];
  /** A page that declares its referrer and DNS-prefetch policies itself (see DOCUMENT_POLICY_META). */
  headPolicies?: boolean;
  /** Memo for the handler's per-file header value. */
  csp?: string;
  /** Answered per reader (reader sign-in): sent with Vary: Cookie (its Cache-Control says private). */
  readerPrivate?: boolean;
}

/** A file served as identity until settleVariants adds its variants (see FileExtras.deferred). */
export interface UnsettledFile {
  path: string;
  /** The manifest's size and SHA-256 of the file's bytes. */
  size: number;
  sha256: string;
  /** Where the file's bytes are. */
  identity: string;
  /** Where its variants are or go: `<encodedBase>.gz`, `<encodedBase>.br`. */
  encodedBase: string;
  /** encodedBase is in this version's own folder (so variants may be written there), not a holder's. */
  own: boolean;
  /** Variants on record, to be checked before they are served; undefined: none made yet (deferred). */
  recorded?: { gzip?: { size: number; sha256: string }; br?: { size: number; sha256: string } };
}

/** Files at most this large are kept in memory after their first request. */
const CACHE_FILE_BYTES = 256 * 1024;
/** In-memory bytes across every version of every site; beyond it files are streamed from disk. */
const CACHE_BUDGET_BYTES = 128 * 1024 * 1024;
/** Distinct request paths remembered per version. */
const MEMO_PATHS = 4096;
/** Bytes cached now, process-wide (a retired version gives its share back). */
let cachedTotal = 0;

/**
 * One extracted, verified version of the site, held in memory as a lookup table (nothing is
 * served that isn't in it, so the file system is never asked whether a path exists). It counts
 * the requests using it, so a retired version's directory is deleted only once they finish.
 */
export class SiteVersion {
  private refs = 0;
  private retiredCallback: (() => void) | null = null;
  private cachedBytes = 0;
  /** Request paths already resolved against this version (bounded): the per-request path work is done once. */
  private readonly resolved = new Map<string, unknown>();

  constructor(
    readonly id: string,
    readonly version: string,
    readonly domain: string,
    readonly dir: string,
    private readonly files: ReadonlyMap<string, ServedFile>,
    /** Page paths (`/`, `/guides/start`), for feedback validation. */
    readonly pagePaths: ReadonlySet<string>,
    /** Reader access (the bundle's access map and per-audience files); null for a bundle from before it. */
    readonly access: VersionAccess | null = null,
    /** Versions whose folders hold some of this one's files (a layered version; see VersionOrigins). */
    readonly holders: readonly string[] = [],
    /** Files whose variants are not in the table yet (deferred, or not yet checked); settleVariants empties it. */
    readonly unsettled: UnsettledFile[] = [],
  ) {}

  /** The file stored at bundle-relative `path`, if this version has it. */
  file(path: string): ServedFile | undefined {
    return this.files.get(path);
  }

  /**
   * Adds variants made or checked after the version went live to `path`'s entry; from the next
   * request on they are served. The entry is changed in place, as memoized lookups hold it.
   */
  addVariants(path: string, variants: { gzip?: { absPath: string; size: number }; br?: { absPath: string; size: number } }): void {
    const file = this.files.get(path);
    if (!file) return;
    const tag = file.identity.etag.slice(1, -1);
    if (variants.gzip) file.gzip = { ...variants.gzip, etag: `"${tag}-gz"` };
    if (variants.br) file.br = { ...variants.br, etag: `"${tag}-br"` };
    // Its identity answers now vary with Accept-Encoding: the headers built before did not say so.
    file.identity.headers = undefined;
  }

  /** Number of servable files. */
  get fileCount(): number {
    return this.files.size;
  }

  /** Marks a request as using this version until `release`. */
  acquire(): void {
    this.refs++;
  }

  /** Ends one request's use; runs the retire callback when the last one leaves. */
  release(): void {
    this.refs--;
    if (this.refs === 0 && this.retiredCallback) {
      const run = this.retiredCallback;
      this.retiredCallback = null;
      run();
    }
  }

  /** True while some request is using this version. */
  inUse(): boolean {
    return this.refs > 0;
  }

  /** Calls `onIdle` once no request uses this version (at once if none does); its cached bodies are dropped now. */
  retire(onIdle: () => void): void {
    cachedTotal -= this.cachedBytes;
    this.cachedBytes = 0;
    for (const file of this.files.values())
      for (const variant of [file.identity, file.gzip, file.br]) if (variant) variant.body = undefined;
    if (this.refs === 0) onIdle();
    else this.retiredCallback = onIdle;
  }

  /** A memo of `compute(path)` for this version (the answer for a path never changes within a version), bounded. */
  memo<T>(path: string, compute: (path: string) => T): T {
    const known = this.resolved.get(path) as T | undefined;
    if (known !== undefined) return known;
    const value = compute(path);
    // Bounded: a scan of random paths must not grow memory; the popular paths come back at once.
    if (this.resolved.size >= MEMO_PATHS) this.resolved.clear();
    this.resolved.set(path, value);
    return value;
  }

  /** The variant's bytes when it is small enough to keep in memory, else null (stream it). */
  async cachedBody(variant: FileVariant): Promise<Buffer | null> {
    if (variant.body) return variant.body;
    if (variant.size > CACHE_FILE_BYTES || cachedTotal + variant.size > CACHE_BUDGET_BYTES) return null;
    variant.loading ??= readVersionFile(variant.absPath).then((data) => {
      // Files are immutable once activated; a size change means the disk was tampered with.
      if (data.length !== variant.size) throw new Error(`site file changed on disk: ${variant.absPath}`);
      if (!variant.body) {
        this.cachedBytes += data.length;
        cachedTotal += data.length;
      }
      variant.body = data;
      return data;
    });
    try {
      return await variant.loading;
    } finally {
      variant.loading = undefined;
    }
  }
}

async function readVersionFile(absPath: string): Promise<Buffer> {
  const handle = await openVersionFile(absPath);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
