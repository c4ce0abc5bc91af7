import { constants } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** One stored representation of a served file (identity, gzip or brotli). */
export interface FileVariant {
  absPath: string;
  size: number;
  etag: string;
  /** The bytes, once read (small files only; see SiteVersion.cacheBudget). */
  body?: Buffer;
  loading?: Promise<Buffer>;
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
  /** An API page with a "Try it" form (see siteSecurityPolicy). */
  apiPlayground?: boolean;
  /** Memo for the handler's per-file header value. */
  csp?: string;
}

/** Files at most this large are kept in memory after their first request. */
const CACHE_FILE_BYTES = 256 * 1024;
/** Total in-memory bytes per version; beyond it files are streamed from disk. */
const CACHE_BUDGET_BYTES = 64 * 1024 * 1024;

/**
 * One extracted, verified version of the site, held in memory as a lookup table (nothing is
 * served that isn't in it, so the file system is never asked whether a path exists). It counts
 * the requests using it, so a retired version's directory is deleted only once they finish.
 */
export class SiteVersion {
  private refs = 0;
  private retiredCallback: (() => void) | null = null;
  private cachedBytes = 0;

  constructor(
    readonly id: string,
    readonly version: string,
    readonly domain: string,
    readonly dir: string,
    private readonly files: ReadonlyMap<string, ServedFile>,
    /** Page paths (`/`, `/guides/start`), for feedback validation. */
    readonly pagePaths: ReadonlySet<string>,
  ) {}

  /** The file stored at bundle-relative `path`, if this version has it. */
  file(path: string): ServedFile | undefined {
    return this.files.get(path);
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

  /** Calls `onIdle` once no request uses this version (at once if none does). */
  retire(onIdle: () => void): void {
    if (this.refs === 0) onIdle();
    else this.retiredCallback = onIdle;
  }

  /** The variant's bytes when it is small enough to keep in memory, else null (stream it). */
  async cachedBody(variant: FileVariant): Promise<Buffer | null> {
    if (variant.body) return variant.body;
    if (variant.size > CACHE_FILE_BYTES || this.cachedBytes + variant.size > CACHE_BUDGET_BYTES) return null;
    variant.loading ??= readFile(variant.absPath, { flag: constants.O_RDONLY | constants.O_NOFOLLOW }).then((data) => {
      // Files are immutable once activated; a size change means the disk was tampered with.
      if (data.length !== variant.size) throw new Error(`site file changed on disk: ${variant.absPath}`);
      if (!variant.body) this.cachedBytes += data.length;
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
