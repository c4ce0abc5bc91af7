import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

interface PendingAppend {
  data: Buffer;
  resolve: (offset: number) => void;
  reject: (err: unknown) => void;
}

/** Where the platform has O_DSYNC (Linux, macOS) each write returns only once its data is on stable storage. */
const WRITES_ARE_DURABLE = constants.O_DSYNC !== undefined;
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (WRITES_ARE_DURABLE ? constants.O_DSYNC : 0);

/**
 * Durable appends to one segment file with group commit: appends that arrive within
 * `groupCommitMs`, or while a durable write is in flight, share the next one. Each caller
 * resolves with the byte offset of its data only once that data is on disk. A failed write
 * (ENOSPC, EIO) is cut back to the last durable byte so the file never keeps a half record
 * that would break the appends after it.
 *
 * The file is opened O_DSYNC, so a batch is one trip through the thread pool with the
 * guarantee of write + fdatasync. As two trips, with a turn of the event loop between them,
 * every commit waited twice behind whatever queries were running.
 */
export class SegmentAppender {
  private queue: PendingAppend[] = [];
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    private readonly handle: FileHandle,
    /** End of the durable content: where the next batch lands. */
    private durableSize: number,
    private readonly groupCommitMs: number,
  ) {}

  /** Opens `path` for appending; `size` is the verified length of its good content. */
  static async open(path: string, size: number, groupCommitMs: number): Promise<SegmentAppender> {
    const handle = await open(path, APPEND_FLAGS, 0o600);
    return new SegmentAppender(handle, size, groupCommitMs);
  }

  /** Bytes of durable content in the file. */
  get size(): number {
    return this.durableSize;
  }

  /** Appends `data` (whole records ending in a newline); resolves with its offset once durable. */
  append(data: Buffer): Promise<number> {
    if (this.closed) return Promise.reject(new Error('segment is closed'));
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ data, resolve, reject });
      this.schedule();
    });
  }

  /** Waits for queued appends, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    // Bounded: each round empties the queue, and appends after `closed` are refused.
    this.closed = true;
    for (let round = 0; round < 3 && (this.flushing || this.queue.length > 0); round++) {
      await this.flushing;
      if (this.queue.length > 0) await this.flushNow();
    }
    await this.handle.close();
  }

  private schedule(): void {
    if (this.flushing || this.timer) return; // the running flush picks the queue up when it ends
    if (this.groupCommitMs <= 0) {
      void this.flushNow();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flushNow();
    }, this.groupCommitMs);
  }

  private flushNow(): Promise<void> {
    this.flushing = this.writeBatch(this.queue.splice(0)).finally(() => {
      this.flushing = null;
      // Appends that queued up during this flush already waited; commit them at once.
      if (this.queue.length > 0) void this.flushNow();
    });
    return this.flushing;
  }

  private async writeBatch(batch: PendingAppend[]): Promise<void> {
    if (batch.length === 0) return;
    const data = batch.length === 1 ? batch[0].data : Buffer.concat(batch.map((p) => p.data));
    const start = this.durableSize;
    try {
      let written = 0;
      // write() may be partial; the loop is bounded by the bytes left, and a zero-byte write is an error.
      while (written < data.length) {
        const { bytesWritten } = await this.handle.write(data, written, data.length - written);
        if (bytesWritten <= 0) throw Object.assign(new Error('short write to segment'), { code: 'EIO' });
        written += bytesWritten;
      }
      if (!WRITES_ARE_DURABLE) await this.handle.datasync();
    } catch (err) {
      await this.cutBackTo(start);
      for (const p of batch) p.reject(err);
      return;
    }
    this.durableSize = start + data.length;
    let offset = start;
    for (const p of batch) {
      p.resolve(offset);
      offset += p.data.length;
    }
  }

  /** Drops whatever part of a failed batch reached the file, keeping the file well-formed. */
  private async cutBackTo(size: number): Promise<void> {
    try {
      await this.handle.truncate(size);
      await this.handle.datasync();
    } catch {
      // The next open truncates a torn tail anyway; refusing further appends keeps offsets honest.
      this.closed = true;
    }
  }
}
