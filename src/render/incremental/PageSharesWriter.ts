import { createHash, type Hash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PageShare } from './PageShare.js';
import { PAGE_SHARES_FORMAT, type RecordedShare, SHARES_BLOB, SHARES_INDEX, type ShareEntry, type SharesIndex } from './PageShares.js';

/** A blob being written (by this export, a racing one, or one that crashed). */
const BLOB_BEING_WRITTEN = /^shares-[0-9a-f]{12}\.blob\.tmp$/;

/** Bytes gathered before they are written out: few write calls, little held in memory. */
const FLUSH_BYTES = 1 << 20;

/**
 * Writes this export's page shares as the next export's record (see PageShares). Shares arrive
 * in any order (threads, reused pages first) and are appended to a new blob as they come, so the
 * record never sits in memory whole; a share read from the last record is copied as its raw
 * region, never decoded and encoded again. `save` names the blob in a new index (written under a
 * temporary name, then renamed) and removes older blobs; a racing export's blob may go with
 * them, which only makes its index read as empty next time.
 */
export class PageSharesWriter {
  private readonly pages: Record<string, ShareEntry> = {};
  private readonly hash: Hash = createHash('sha256');
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
    for (const p of parts) if (p !== null) buffers.push(p);
    this.append(path, [key, [...modules], entryBytes, this.offset, lengths], buffers);
  }

  /** Adds a share read from the last record, as the bytes it was recorded with. */
  copy(path: string, recorded: RecordedShare): void {
    const [key, modules, entryBytes, , lengths] = recorded.entry;
    this.append(path, [key, modules, entryBytes, this.offset, lengths], [recorded.region]);
  }

  private append(path: string, entry: ShareEntry, buffers: Buffer[]): void {
    if (this.failed) return;
    this.pages[path] = entry;
    for (const b of buffers) {
      this.hash.update(b);
      this.offset += b.length;
      this.pendingBytes += b.length;
      this.pending.push(b);
    }
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
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
    this.flush();
    const temporary = join(this.dir, `${this.blob}.tmp`);
    if (this.failed) return void (await rm(temporary, { force: true }).catch(() => {}));
    const index: SharesIndex = {
      format: PAGE_SHARES_FORMAT,
      blob: this.blob,
      size: this.offset,
      sha256: this.hash.digest('hex'),
      pages: this.pages,
    };
    const payload = JSON.stringify(index);
    const indexTemporary = join(this.dir, `${SHARES_INDEX}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await rename(temporary, join(this.dir, this.blob));
      await writeFile(indexTemporary, `${createHash('sha256').update(payload).digest('hex')}\n${payload}`);
      await rename(indexTemporary, join(this.dir, SHARES_INDEX));
    } catch {
      await Promise.all([rm(temporary, { force: true }), rm(indexTemporary, { force: true })]).catch(() => {});
      return;
    }
    // A racing export may have put its index in place since: the blob it names stays too.
    const live = await readFile(join(this.dir, SHARES_INDEX), 'utf8').then(
      (text) => /"blob":"(shares-[0-9a-f]{12}\.blob)"/.exec(text.slice(0, 300))?.[1],
      () => undefined,
    );
    const names = await readdir(this.dir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((n) => (SHARES_BLOB.test(n) && n !== this.blob && n !== live) || BLOB_BEING_WRITTEN.test(n))
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
