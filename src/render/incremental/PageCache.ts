import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PageBody } from './PageBody.js';

/** Bumped whenever what a cache entry holds, or how a body becomes a page, changes. */
export const PAGE_CACHE_FORMAT = 1;

/** What the cache folder's `meta.json` records about the export that last wrote it. */
interface CacheMeta {
  format: number;
  rendererVersion: string;
  siteKey: string;
  bytes: number;
}

/** How a cache was opened: `discarded` says why what was there was thrown away (for the log). */
export interface OpenedPageCache {
  cache: PageCache;
  discarded?: string;
}

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

/**
 * The incremental export's store of page bodies for one site, on disk so it survives restarts:
 * `<dir>/meta.json` and one file per page under `<dir>/pages/`. Each file starts with the
 * SHA-256 of the rest, so a truncated, altered or torn entry reads as a miss (the page is rendered
 * afresh), never as a wrong page. That checksum is also why entries are written in place, not to
 * a temporary name and renamed: two exports racing on one entry write the same bytes when their
 * inputs agree, and an entry their writes tore is a miss; a failed write only costs a later export
 * a render. On this machine's file system, creating and renaming a file cost four times what
 * rewriting one does (a full export writes every page's entry). Bounded: once `maxBytes` is
 * reached no more entries are kept.
 */
export class PageCache {
  private bytes = 0;
  private full = false;
  /** The size of each page's entry as this export read or wrote it (see sizeOf). */
  private readonly sizes = new Map<string, number>();
  private readonly writes: Promise<void>[] = [];
  /** Entries this export wrote (after a discard, the only ones `finish` keeps). */
  private readonly written = new Set<string>();

  private constructor(
    private readonly dir: string,
    private readonly siteKey: string,
    private readonly rendererVersion: string,
    private readonly maxBytes: number,
    private readonly discarded: boolean,
  ) {}

  /**
   * Opens (creating it if need be) the cache in `dir`. What is there is thrown away when the
   * renderer's version or the cache format differ, when the inputs every page depends on
   * (`siteKey`) changed, when its record is unreadable, or when `full` asks for a full export.
   */
  static async open(options: {
    dir: string;
    siteKey: string;
    rendererVersion: string;
    maxBytes: number;
    full?: boolean;
  }): Promise<OpenedPageCache> {
    const discarded = options.full ? 'a full export was asked for' : await staleReason(options);
    // Entries thrown away are left to be rewritten in place (cheaper than new files) and never
    // match meanwhile: their keys hold the old inputs. `finish` removes those not rewritten.
    const cache = new PageCache(options.dir, options.siteKey, options.rendererVersion, options.maxBytes, discarded !== undefined);
    await mkdir(cache.pagesDir, { recursive: true });
    return discarded === undefined ? { cache } : { cache, discarded };
  }

  private get pagesDir(): string {
    return join(this.dir, 'pages');
  }

  private entryName(path: string): string {
    return `${sha256(path).slice(0, 40)}.json`;
  }

  /**
   * The body kept for `path` if it was rendered from the same inputs: `key` (the page's own
   * inputs) must match, and `modulesKey` must give the same answer for the modules it loaded.
   */
  get(path: string, key: string, modulesKey: (modules: readonly string[]) => string): PageBody | undefined {
    // Thrown away: what is still on disk waits to be rewritten, and a full export reuses nothing.
    if (this.discarded) return undefined;
    let text: string;
    try {
      text = readFileSync(join(this.pagesDir, this.entryName(path)), 'utf8');
    } catch {
      return undefined;
    }
    const newline = text.indexOf('\n');
    if (newline !== 64 || sha256(text.slice(65)) !== text.slice(0, 64)) return undefined;
    let entry: { path: string; key: string; modulesKey: string; body: PageBody };
    try {
      entry = JSON.parse(text.slice(65)) as typeof entry;
    } catch {
      return undefined;
    }
    if (entry.path !== path || entry.key !== key || entry.body?.path !== path) return undefined;
    if (entry.modulesKey !== modulesKey(entry.body.modules)) return undefined;
    this.counted(path, Buffer.byteLength(text));
    return entry.body;
  }

  /**
   * Counts the entry of `path` as kept without reading it (its page came whole from the shares
   * record, which recorded the entry's size): the cache's size stays what reading it would give.
   */
  counted(path: string, bytes: number): void {
    this.bytes += bytes;
    this.sizes.set(path, bytes);
  }

  /** The size of the entry of `path` as this export read, counted or wrote it (0 when it did none). */
  sizeOf(path: string): number {
    return this.sizes.get(path) ?? 0;
  }

  /** Keeps `body`, rendered from `key` and modules answering `modulesKey`, for the next export (written in the background). */
  put(key: string, modulesKey: string, body: PageBody): void {
    if (this.full) return;
    const payload = JSON.stringify({ path: body.path, key, modulesKey, body });
    const text = `${sha256(payload)}\n${payload}`;
    const size = Buffer.byteLength(text);
    if (this.bytes + size > this.maxBytes) {
      this.full = true;
      return;
    }
    this.counted(body.path, size);
    const name = this.entryName(body.path);
    this.written.add(name);
    // A write that fails part way leaves an entry its checksum rejects.
    this.writes.push(writeFile(join(this.pagesDir, name), text).catch(() => {}));
  }

  /**
   * Waits for the entries being written, removes those of pages no longer in the site, and
   * records this export's inputs. Returns the cache's size and whether it reached its bound.
   */
  async finish(paths: readonly string[]): Promise<{ bytes: number; reachedBound: boolean }> {
    await Promise.all(this.writes);
    const current = this.discarded ? this.written : new Set(paths.map((p) => this.entryName(p)));
    const names = await readdir(this.pagesDir).catch(() => [] as string[]);
    await Promise.all(
      // `.tmp`: entries as earlier versions wrote them, before their rename.
      names
        .filter((n) => (n.endsWith('.json') && !current.has(n)) || n.endsWith('.tmp'))
        .map((n) => rm(join(this.pagesDir, n), { force: true }).catch(() => {})),
    );
    const meta: CacheMeta = { format: PAGE_CACHE_FORMAT, rendererVersion: this.rendererVersion, siteKey: this.siteKey, bytes: this.bytes };
    const temporary = join(this.dir, `meta.json.${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(temporary, `${JSON.stringify(meta)}\n`);
    await rename(temporary, join(this.dir, 'meta.json'));
    return { bytes: this.bytes, reachedBound: this.full };
  }
}

/** Why the entries on disk can't serve this export, or undefined when they can (or there are none). */
async function staleReason(options: { dir: string; siteKey: string; rendererVersion: string }): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(join(options.dir, 'meta.json'), 'utf8');
  } catch {
    const hasPages = await readdir(join(options.dir, 'pages')).then(
      (names) => names.length > 0,
      () => false,
    );
    return hasPages ? 'its record (meta.json) is missing' : undefined;
  }
  let meta: CacheMeta;
  try {
    meta = JSON.parse(text) as CacheMeta;
  } catch {
    return 'its record (meta.json) is unreadable';
  }
  if (meta.format !== PAGE_CACHE_FORMAT || meta.rendererVersion !== options.rendererVersion)
    return `the renderer changed (${meta.rendererVersion}/${meta.format} → ${options.rendererVersion}/${PAGE_CACHE_FORMAT})`;
  if (meta.siteKey !== options.siteKey)
    return 'an input every page depends on changed (docs.json, the file list, a non-page file or a setting)';
  return undefined;
}
