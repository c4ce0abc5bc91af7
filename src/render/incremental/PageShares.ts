import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TextPiece } from '../../bundle/BundleSink.js';
import type { PageShare, PageShareMeta } from './PageShare.js';

/** Bumped whenever what the shares record holds, or how a share is laid out, changes. */
export const PAGE_SHARES_FORMAT = 1;

/** The record's index in the site's cache folder; it names the blob beside it. */
export const SHARES_INDEX = 'shares.json';

/** A blob's name: `shares-<random hex>.blob` (anything else in an index is refused). */
export const SHARES_BLOB = /^shares-[0-9a-f]{12}\.blob$/;

/**
 * One page in the index: its output key, the modules its body loaded (what the key is checked
 * with), the size of its body's cache entry, where its region starts in the blob, and the byte
 * lengths of the region's four parts (meta JSON, search entry, Markdown copy, chunk lines; -1 for
 * a null part).
 */
export type ShareEntry = [key: string, modules: string[], entryBytes: number, offset: number, lengths: [number, number, number, number]];

/** The index as stored (after its checksum line). */
export interface SharesIndex {
  format: number;
  blob: string;
  size: number;
  sha256: string;
  pages: Record<string, ShareEntry>;
}

/** A page's recorded share, with the raw bytes of its region (copied as they are into the next record). */
export interface RecordedShare {
  entry: ShareEntry;
  share: PageShare;
  region: Buffer;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The site's last export's page shares (see PageShare), read once: `<dir>/shares.json`, an index
 * whose first line is the SHA-256 of the rest, and the blob it names, whose size and SHA-256 the
 * index records. A one-body export takes every other page's share from here instead of reading
 * and checking its cached body and cutting its search entry and section chunks again. A
 * truncated, altered or mismatched record reads as empty (shares are built from bodies again);
 * a share is used only when its output key equals the one the page has now, and only when its
 * parts name the page (a record whose regions were moved between pages is refused page by page).
 */
export class PageShares {
  private constructor(
    private readonly index: SharesIndex | null,
    private readonly blob: Buffer,
  ) {}

  /** Reads the record in `dir` (empty when missing, damaged, of another format, or when `ignore` is set). */
  static async open(dir: string, ignore = false): Promise<PageShares> {
    const empty = new PageShares(null, Buffer.alloc(0));
    if (ignore) return empty;
    const text = await readFile(join(dir, SHARES_INDEX), 'utf8').catch(() => null);
    if (text === null || text.indexOf('\n') !== 64 || sha256(text.slice(65)) !== text.slice(0, 64)) return empty;
    let index: SharesIndex;
    try {
      index = JSON.parse(text.slice(65)) as SharesIndex;
    } catch {
      return empty;
    }
    if (index.format !== PAGE_SHARES_FORMAT || typeof index.blob !== 'string' || !SHARES_BLOB.test(index.blob)) return empty;
    const blob = await readFile(join(dir, index.blob)).catch(() => null);
    if (!blob || blob.length !== index.size || sha256(blob) !== index.sha256) return empty;
    return new PageShares(index, blob);
  }

  /** How many pages the record holds. */
  get size(): number {
    return this.index ? Object.keys(this.index.pages).length : 0;
  }

  /**
   * The share recorded for `path` when `keyFor(modules)` (the page's output key now, given the
   * modules its body loaded then) is the recorded one and the share names the page.
   */
  get(path: string, keyFor: (modules: readonly string[]) => string): RecordedShare | undefined {
    const entry = this.index?.pages[path];
    if (!entry) return undefined;
    try {
      const [key, modules, , offset, lengths] = entry;
      if (keyFor(modules) !== key) return undefined;
      const end = offset + lengths.reduce((sum, n) => sum + Math.max(n, 0), 0);
      if (!(offset >= 0 && end <= this.blob.length)) return undefined;
      const region = this.blob.subarray(offset, end);
      const share = decodeRegion(region, lengths);
      return namesPage(share, path) ? { entry, share, region } : undefined;
    } catch {
      return undefined;
    }
  }
}

/** The four parts of a region: the meta parsed, the rest as the bytes they are. */
function decodeRegion(region: Buffer, lengths: readonly number[]): PageShare {
  const parts: (Buffer | null)[] = [];
  let at = 0;
  for (const length of lengths) {
    parts.push(length < 0 ? null : region.subarray(at, at + length));
    at += Math.max(length, 0);
  }
  const [meta, search, full, chunks] = parts;
  return { meta: JSON.parse(meta?.toString() ?? 'null') as PageShareMeta, search, full, chunks: chunks ?? Buffer.alloc(0) };
}

/** Whether `piece` (text or UTF-8 bytes) starts with `prefix`. */
function startsWith(piece: TextPiece, prefix: string): boolean {
  if (typeof piece === 'string') return piece.startsWith(prefix);
  const bytes = Buffer.from(prefix);
  return piece.length >= bytes.length && bytes.equals(piece.subarray(0, bytes.length));
}

/** Whether every part of `share` that names a page names `path` (a cheap guard against moved regions). */
function namesPage(share: PageShare, path: string): boolean {
  if (share.meta?.manifest?.path !== path || share.meta.failedReason !== undefined) return false;
  // searchEntryJson and sectionChunkLine both start with the page's path as JSON.
  const quoted = JSON.stringify(path).replace(/</g, '\\u003c');
  if (share.search !== null && !startsWith(share.search, `[${quoted},`)) return false;
  return share.chunks.length === 0 || startsWith(share.chunks, `{"path":${JSON.stringify(path)},`);
}
