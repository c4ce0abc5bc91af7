import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { readChecksummedFile, writeChecksummedFile } from '../../platform/store/checksummedFile.js';
import type { PageShare } from './PageShare.js';
import { PAGE_SHARES_FORMAT, type RecordedShare, SHARES_BLOB, SHARES_INDEX, type ShareEntry, type SharesIndex } from './PageShares.js';
import { segmentsToFold } from './segmentsToFold.js';

/** A segment being written (by this export, a racing one, or one that crashed). */
const BLOB_BEING_WRITTEN = /^shares-[0-9a-f]{12}\.blob\.tmp$/;

/** Bytes gathered before they are written out: few write calls, little held in memory. */
const FLUSH_BYTES = 1 << 20;

/** A reused page's region where the last record left it (its entry points there unless the record is compacted). */
interface Kept {
  path: string;
  region: Buffer;
  segment: { name: string; size: number };
}

/**
 * Writes this export's page shares as the next export's record (see PageShares). The shares
 * made in this export arrive in any order (threads, reused pages first) and are appended to a
 * new segment as they come, so the record never sits in memory whole; a share reused from the
 * last record stays in the segment that holds it, and its entry points there again: a one-page
 * edit writes that page's share (and the index), not the ~85 MB of a 10,000-page site's shares.
 * What the record no longer uses (the old regions of changed pages) is dead weight in old
 * segments; past a bound (segmentsToFold) the regions still used in those segments are copied
 * into the new one, and segments no index uses are removed. `save` writes the index (under a
 * temporary name, then renamed); a racing export's segments may go, which only makes its pages'
 * regions read as missing next time.
 */
export class PageSharesWriter {
  private readonly pages: Record<string, ShareEntry> = {};
  private readonly kept: Kept[] = [];
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private offset = 0;
  private failed = false;

  private constructor(
    private readonly dir: string,
    private readonly blob: string,
  ) {}

  /** Starts a record in `dir` (which must exist). */
  static create(dir: string): PageSharesWriter {
    return new PageSharesWriter(dir, `shares-${randomBytes(6).toString('hex')}.blob`);
  }

  /** Adds the share of `path`, made from inputs with output key `key` and a body that loaded `modules`. */
  add(path: string, key: string, modules: readonly string[], entryBytes: number, share: PageShare): void {
    const parts = [JSON.stringify(share.meta), share.search, share.full, share.chunks].map((p) =>
      p === null ? null : typeof p === 'string' ? Buffer.from(p) : Buffer.from(p.buffer, p.byteOffset, p.length),
    );
    const lengths = parts.map((p) => (p === null ? -1 : p.length)) as ShareEntry[4];
    const buffers: Buffer[] = [];
    let crc = 0;
    for (const p of parts) {
      if (p === null) continue;
      buffers.push(p);
      crc = crc32(p, crc);
    }
    this.pages[path] = [key, [...modules], entryBytes, this.append(buffers), lengths, 0, crc];
  }

  /** Adds a share reused from the last record: its entry points at the region where it lies. */
  copy(path: string, recorded: RecordedShare): void {
    this.pages[path] = [...recorded.entry];
    this.kept.push({ path, region: recorded.region, segment: recorded.segment });
  }

  /** Appends `buffers` to this export's segment; returns where they start. */
  private append(buffers: Buffer[]): number {
    const at = this.offset;
    for (const b of buffers) {
      this.offset += b.length;
      this.pendingBytes += b.length;
      this.pending.push(b);
    }
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    return at;
  }

  /** Appends what is pending; the file is opened for each batch, so an export that fails midway leaves no open descriptor. */
  private flush(): void {
    if (this.failed || this.pending.length === 0) return;
    try {
      const flag = this.offset === this.pendingBytes ? 'w' : 'a';
      writeFileSync(join(this.dir, `${this.blob}.tmp`), Buffer.concat(this.pending, this.pendingBytes), { flag });
    } catch {
      // A record that can't be written only costs the next export its shares.
      this.failed = true;
    }
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Writes the record out; errors are swallowed (the next export builds shares from bodies). */
  async save(): Promise<void> {
    const fold = segmentsToFold(this.kept, this.offset);
    for (const k of this.kept) {
      const entry = this.pages[k.path];
      if (fold.has(k.segment.name)) [entry[3], entry[5]] = [this.append([k.region]), 0];
    }
    this.flush();
    const temporary = join(this.dir, `${this.blob}.tmp`);
    if (this.failed) return void (await rm(temporary, { force: true }).catch(() => {}));
    const segments: SharesIndex['segments'] = this.offset > 0 ? [[this.blob, this.offset]] : [];
    const number = new Map<string, number>();
    for (const k of this.kept) {
      if (fold.has(k.segment.name)) continue;
      if (!number.has(k.segment.name)) number.set(k.segment.name, segments.push([k.segment.name, k.segment.size]) - 1);
      this.pages[k.path][5] = number.get(k.segment.name)!;
    }
    const index: SharesIndex = { format: PAGE_SHARES_FORMAT, segments, pages: this.pages };
    try {
      if (this.offset > 0) await rename(temporary, join(this.dir, this.blob));
      await writeChecksummedFile(join(this.dir, SHARES_INDEX), JSON.stringify(index));
    } catch {
      await rm(temporary, { force: true }).catch(() => {});
      return;
    }
    await this.removeUnused(new Set(segments.map(([name]) => name)));
  }

  /** Removes the segments neither this index nor the one in place now (a racing export's) uses, and leftovers of crashed writes. */
  private async removeUnused(used: Set<string>): Promise<void> {
    const live = await readChecksummedFile(join(this.dir, SHARES_INDEX));
    try {
      for (const [name] of (JSON.parse(live ?? '{}') as Partial<SharesIndex>).segments ?? []) used.add(name);
    } catch {
      // An index that doesn't parse names nothing to keep.
    }
    const names = await readdir(this.dir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((n) => (SHARES_BLOB.test(n) && !used.has(n)) || BLOB_BEING_WRITTEN.test(n))
        .map((n) => rm(join(this.dir, n), { force: true }).catch(() => {})),
    );
  }

  /** Drops the record being written (the export failed). */
  async abandon(): Promise<void> {
    this.failed = true;
    this.pending = [];
    await rm(join(this.dir, `${this.blob}.tmp`), { force: true }).catch(() => {});
  }
}
