import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';

/** Where bytes appended to a spill file are. */
export interface SpillSlice {
  offset: number;
  length: number;
}

/**
 * An append-only scratch file for bytes that must wait but need not sit in memory: an export's
 * compressed zip entries add up to the bundle's size (tens of megabytes on a large site, mostly images)
 * and wait until the archive is written. In a file they cost page cache, not the worker's RSS.
 * Synchronous on purpose: appends are small and land in the page cache, and the callers are
 * synchronous steps of a render.
 */
export class SpillFile {
  private fd: number;
  private size = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w+', 0o600);
  }

  append(bytes: Uint8Array): SpillSlice {
    const offset = this.size;
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done, bytes.length - done, offset + done);
    this.size += bytes.length;
    return { offset, length: bytes.length };
  }

  /** Copies the bytes of `slice` into `target` at `at`. */
  readInto(slice: SpillSlice, target: Uint8Array, at = 0): void {
    for (let done = 0; done < slice.length; ) {
      const n = readSync(this.fd, target, at + done, slice.length - done, slice.offset + done);
      if (n === 0) throw new Error(`zip spill file ${this.path} ends early`);
      done += n;
    }
  }

  /** Closes and deletes the file (again is a no-op). */
  remove(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
    rmSync(this.path, { force: true });
  }
}
