import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { BundleRefusedError } from '../BundleRefusedError.js';
import { readExactly, type ZipEntryRecord } from './readZipDirectory.js';

/** An entry and where its stored bytes start in the file. */
export interface LocatedEntry {
  entry: ZipEntryRecord;
  dataStart: number;
}

const LOCAL_SIGNATURE = 0x04034b50;
const LOCAL_HEADER_SIZE = 30;

/**
 * Reads each entry's local header: it must be where the directory says, carry the same name
 * and no encryption, and its data must end before the next entry starts (overlapping entries
 * are a known way to build zip bombs from a tiny file).
 */
export async function locateEntryData(handle: FileHandle, files: ZipEntryRecord[], cdOffset: number): Promise<LocatedEntry[]> {
  const ordered = [...files].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  const located: LocatedEntry[] = [];
  let previousEnd = 0;
  for (const entry of ordered) {
    const label = JSON.stringify(entry.name);
    if (entry.localHeaderOffset < previousEnd) throw new BundleRefusedError(`entry ${label} overlaps another entry`);
    if (entry.localHeaderOffset + LOCAL_HEADER_SIZE > cdOffset)
      throw new BundleRefusedError(`corrupt zip: entry ${label} points past the file data`);
    // The header and the name the directory expects, in one read (one trip to the thread pool per entry).
    const nameEnd = Math.min(entry.localHeaderOffset + LOCAL_HEADER_SIZE + entry.rawName.length, cdOffset);
    const header = await readExactly(handle, entry.localHeaderOffset, nameEnd - entry.localHeaderOffset);
    if (header.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new BundleRefusedError(`corrupt zip: no local header for ${label}`);
    if (header.readUInt16LE(6) & 0x0041) throw new BundleRefusedError(`encrypted entry ${label} is not allowed`);
    const nameLength = header.readUInt16LE(26);
    const extraLength = header.readUInt16LE(28);
    const localName = header.subarray(LOCAL_HEADER_SIZE);
    if (nameLength !== entry.rawName.length || !localName.equals(entry.rawName))
      throw new BundleRefusedError(`entry ${label} has a different name in its local header`);
    const dataStart = entry.localHeaderOffset + LOCAL_HEADER_SIZE + nameLength + extraLength;
    const dataEnd = dataStart + entry.compressedSize;
    if (dataEnd > cdOffset) throw new BundleRefusedError(`corrupt zip: data of ${label} runs into the central directory (truncated?)`);
    previousEnd = dataEnd;
    located.push({ entry, dataStart });
  }
  return located;
}

/** The stages that turn an entry's stored bytes back into its content. */
export function entryStages(handle: FileHandle, item: LocatedEntry): Stage[] {
  const { entry, dataStart } = item;
  if (entry.compressedSize === 0) return [Readable.from([])];
  const raw = readRange(handle, dataStart, entry.compressedSize);
  return entry.method === 8 ? [raw, createInflateRaw()] : [raw];
}

/**
 * Positional reads of one byte range of the shared zip handle. (A FileHandle's own read
 * streams each leave a listener on the handle, and entries number in the thousands.)
 */
function readRange(handle: FileHandle, start: number, length: number): Readable {
  let position = start;
  const end = start + length;
  return new Readable({
    highWaterMark: 256 * 1024,
    read(size) {
      const want = Math.min(Math.max(size, 64 * 1024), end - position);
      if (want <= 0) {
        this.push(null);
        return;
      }
      handle.read(Buffer.allocUnsafe(want), 0, want, position).then(
        ({ bytesRead, buffer }) => {
          if (bytesRead === 0) return this.destroy(new BundleRefusedError('corrupt zip: file is truncated'));
          position += bytesRead;
          this.push(buffer.subarray(0, bytesRead));
        },
        (err: Error) => this.destroy(err),
      );
    },
  });
}

/** A stage of an entry's pipeline: the raw reader, the inflater, a meter, a file. */
export type Stage = NodeJS.ReadableStream | NodeJS.ReadWriteStream | NodeJS.WritableStream;
