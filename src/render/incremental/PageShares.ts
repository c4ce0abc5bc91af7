import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { TextPiece } from '../../bundle/BundleSink.js';
import { readChecksummedFile } from '../../platform/store/checksummedFile.js';
import type { PageShare, PageShareMeta } from './PageShare.js';

/** Bumped whenever what the shares record holds, or how a share is laid out, changes. */
export const PAGE_SHARES_FORMAT = 2;

/** The record's index in the site's cache folder; it names the segments beside it. */
export const SHARES_INDEX = 'shares.json';

/** A segment's name: `shares-<random hex>.blob` (anything else in an index is refused). */
export const SHARES_BLOB = /^shares-[0-9a-f]{12}\.blob$/;

/**
 * One page in the index: its output key, the modules its body loaded (what the key is checked
 * with), the size of its body's cache entry, where its region starts in its segment, the byte
 * lengths of the region's four parts (meta JSON, search entry, Markdown copy, chunk lines; -1
 * for a null part), which of the index's segments holds it, and the CRC-32 of the region.
 */
export type ShareEntry = [
  key: string,
  modules: string[],
  entryBytes: number,
  offset: number,
  lengths: [number, number, number, number],
  segment: number,
  crc: number,
];

/** The index as stored (after its checksum line): the segments (name, size when written) and the pages. */
export interface SharesIndex {
  format: number;
  segments: [name: string, size: number][];
  pages: Record<string, ShareEntry>;
}

/** A page's recorded share, with the raw bytes of its region and the segment holding them (the next record may point there again). */
export interface RecordedShare {
  entry: ShareEntry;
  share: PageShare;
  region: Buffer;
  segment: { name: string; size: number };
}

/**
 * The site's last export's page shares (see PageShare), read once: `<dir>/shares.json`, an index
 * whose first line is the SHA-256 of the rest, and the segments it names, each written whole by
 * one export and never changed after (PageSharesWriter appends a segment per export with the
 * shares it made; the shares it reused stay where they were). A one-body export takes every
 * other page's share from here instead of reading and checking its cached body and cutting its
 * search entry and section chunks again. An index that fails its checksum reads as empty; a
 * region is used only when its segment holds it whole with the CRC-32 the index records (a
 * truncated, altered or missing segment costs the pages it held, not the others), when its
 * output key equals the one the page has now, and when its parts name the page (a record whose
 * regions were moved between pages is refused page by page).
 */
export class PageShares {
  private constructor(
    private readonly index: SharesIndex | null,
    private readonly segments: (Buffer | null)[],
  ) {}

  /** Reads the record in `dir` (empty when missing, damaged, of another format, or when `ignore` is set). */
  static async open(dir: string, ignore = false): Promise<PageShares> {
    const empty = new PageShares(null, []);
    if (ignore) return empty;
    const text = await readChecksummedFile(join(dir, SHARES_INDEX));
    let index: SharesIndex;
    try {
      index = JSON.parse(text ?? 'null') as SharesIndex;
      if (index?.format !== PAGE_SHARES_FORMAT || !Array.isArray(index.segments)) return empty;
    } catch {
      return empty;
    }
    // What each segment held when the index was written; bytes a racing export may have added since are not read.
    const segments = await Promise.all(
      index.segments.map(([name, size]) =>
        typeof name === 'string' && SHARES_BLOB.test(name)
          ? readFile(join(dir, name)).then(
              (b) => b.subarray(0, size),
              () => null,
            )
          : null,
      ),
    );
    return new PageShares(index, segments);
  }

  /** How many pages the record holds. */
  get size(): number {
    return this.index ? Object.keys(this.index.pages).length : 0;
  }

  /**
   * The share recorded for `path` when `keyFor(modules)` (the page's output key now, given the
   * modules its body loaded then) is the recorded one, its region is whole and the share names the page.
   */
  get(path: string, keyFor: (modules: readonly string[]) => string): RecordedShare | undefined {
    const entry = this.index?.pages[path];
    if (!entry) return undefined;
    try {
      const [key, modules, , offset, lengths, segment, crc] = entry;
      if (keyFor(modules) !== key) return undefined;
      const blob = this.segments[segment];
      const end = offset + lengths.reduce((sum, n) => sum + Math.max(n, 0), 0);
      if (!blob || !(offset >= 0 && end <= blob.length)) return undefined;
      const region = blob.subarray(offset, end);
      if (crc32(region) !== crc) return undefined;
      const share = decodeRegion(region, lengths);
      const [name, size] = this.index!.segments[segment];
      return namesPage(share, path) ? { entry, share, region, segment: { name, size } } : undefined;
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
