import AdmZip from 'adm-zip';
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { posix } from 'node:path';
import { writeFileDurablyWith } from '../../platform/store/writeFileDurably.js';

/** One prepared entry: its header fields and a way to put its compressed bytes into a buffer. */
export interface ArchiveEntry {
  path: string;
  method: number;
  crc: number;
  size: number;
  compressedSize: number;
  /** Copies the entry's compressed bytes into `target` at `at` (exactly `compressedSize` of them). */
  copyInto(target: Uint8Array, at: number): void;
}

/** What was written. */
export interface WrittenArchive {
  sizeBytes: number;
  sha256: string;
  entries: number;
}

/** Bytes gathered before each write to the file. */
const CHUNK = 1 << 20;
/** The classic zip format's limits; beyond them an archive needs zip64, which bundles don't use (readZipDirectory refuses it). */
const MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;

/**
 * Writes `entries` (in order, dated `now`) as a zip at `zipPath`, durably (writeFileDurably). adm-zip
 * lays out each entry's local and central headers; the archive itself is streamed to the file a
 * chunk at a time, so packing needs a megabyte of memory rather than the whole bundle twice over
 * (adm-zip's `toBuffer` holds every entry's data and then the archive).
 */
export async function writeZipArchive(zipPath: string, entries: readonly ArchiveEntry[], now: Date): Promise<WrittenArchive> {
  if (entries.length > MAX_ENTRIES)
    throw new Error(`the bundle has ${entries.length} files; a zip without zip64 holds at most ${MAX_ENTRIES}`);
  // One adm-zip entry lays out every file's headers in turn. `addFile` per file built a new entry
  // (dozens of closures each) and indexed it, several times slower than this way.
  const entry = new AdmZip().addFile('entry', Buffer.alloc(0), '', 0o644);
  entry.header.time = now;
  return writeFileDurablyWith(zipPath, 0o600, async (handle) => {
    const out = new ChunkedWriter(handle);
    const central: Buffer[] = [];
    for (const prepared of entries) {
      entry.entryName = zipEntryName(prepared.path);
      entry.header.method = prepared.method;
      entry.header.crc = prepared.crc;
      entry.header.size = prepared.size;
      entry.header.compressedSize = prepared.compressedSize;
      entry.header.offset = out.written;
      await out.put(entry.packLocalHeader());
      await out.fill(prepared.compressedSize, (target, at) => prepared.copyInto(target, at));
      central.push(entry.packCentralHeader());
    }
    const centralOffset = out.written;
    for (const header of central) await out.put(header);
    const centralSize = out.written - centralOffset;
    if (out.written > MAX_OFFSET) throw new Error(`the bundle is ${out.written} bytes; a zip without zip64 holds at most 4 GiB`);
    await out.put(endOfCentralDirectory(entries.length, centralSize, centralOffset));
    await out.flush();
    return { sizeBytes: out.written, sha256: out.sha256(), entries: entries.length };
  });
}

/** The name `addFile` would store for `path`: backslashes as slashes, no leading slash or `..` (adm-zip's normalisation). */
function zipEntryName(path: string): string {
  return posix.join('.', posix.normalize(`/${path.split('\\').join('/')}`));
}

/** The end-of-central-directory record (no comment), as adm-zip writes it for a classic zip. */
function endOfCentralDirectory(count: number, size: number, offset: number): Buffer {
  const record = Buffer.alloc(22);
  record.writeUInt32LE(0x06054b50, 0);
  record.writeUInt16LE(count, 8);
  record.writeUInt16LE(count, 10);
  record.writeUInt32LE(size, 12);
  record.writeUInt32LE(offset, 16);
  return record;
}

/** Gathers bytes into one reused buffer and writes it out when full, hashing what it writes. */
class ChunkedWriter {
  written = 0;
  private readonly buffer = Buffer.allocUnsafe(CHUNK);
  private used = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly handle: FileHandle) {}

  put(bytes: Uint8Array): Promise<void> {
    return this.fill(bytes.length, (target, at) => target.set(bytes, at));
  }

  /** Appends `length` bytes that `copy` places into a buffer (larger runs get a buffer of their own). */
  async fill(length: number, copy: (target: Uint8Array, at: number) => void): Promise<void> {
    if (this.used + length > CHUNK) await this.flush();
    if (length > CHUNK) {
      const own = Buffer.allocUnsafe(length);
      copy(own, 0);
      await this.writeOut(own);
    } else {
      copy(this.buffer, this.used);
      this.used += length;
    }
    this.written += length;
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    await this.writeOut(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  sha256(): string {
    return this.hash.digest('hex');
  }

  private async writeOut(bytes: Uint8Array): Promise<void> {
    this.hash.update(bytes);
    for (let done = 0; done < bytes.length; ) done += (await this.handle.write(bytes, done, bytes.length - done)).bytesWritten;
  }
}
