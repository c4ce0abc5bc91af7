import type { FileHandle } from 'node:fs/promises';
import { BundleRefusedError } from '../BundleRefusedError.js';

/** One central-directory record, exactly as stored (no name rewriting of any kind). */
export interface ZipEntryRecord {
  /** The name bytes as stored in the archive. */
  rawName: Buffer;
  /** `rawName` decoded as UTF-8 (invalid UTF-8 is refused while reading). */
  name: string;
  flags: number;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Host system that wrote the entry (3 = Unix: the high 16 bits of externalAttributes are st_mode). */
  madeByOs: number;
  externalAttributes: number;
  localHeaderOffset: number;
}

/** The archive's entries plus where the central directory starts (no entry data may reach it). */
export interface ZipDirectory {
  entries: ZipEntryRecord[];
  centralDirectoryOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const EOCD_SIZE = 22;
const CENTRAL_HEADER_SIZE = 46;
const MAX_COMMENT = 0xffff;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the central directory of a zip file without trusting anything in it: the end record
 * must sit exactly at the end of the file, every record must be complete and inside the
 * directory, and the count must match. Names are returned raw, because zip libraries rewrite
 * dangerous names (`../x` → `x`) and the verifier must see what an attacker wrote.
 */
// size: reads the central directory field by field in the zip format's order; each check sits next to the field it checks
export async function readZipDirectory(handle: FileHandle, fileSize: number, maxEntries: number): Promise<ZipDirectory> {
  if (fileSize < EOCD_SIZE) throw new BundleRefusedError('not a zip file (too short)');
  const tailLength = Math.min(fileSize, EOCD_SIZE + MAX_COMMENT);
  const tail = await readExactly(handle, fileSize - tailLength, tailLength);
  let eocd = -1;
  // The comment length must account for every byte after the record: a record found elsewhere
  // means trailing garbage or a truncated file, both refused.
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD_SIGNATURE && i + EOCD_SIZE + tail.readUInt16LE(i + 20) === tail.length) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new BundleRefusedError('not a zip file or truncated (no end-of-central-directory record at the end)');
  const disk = tail.readUInt16LE(eocd + 4);
  const cdDisk = tail.readUInt16LE(eocd + 6);
  const entriesOnDisk = tail.readUInt16LE(eocd + 8);
  const totalEntries = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  const eocdOffset = fileSize - tailLength + eocd;
  if (eocd >= 20 && tail.readUInt32LE(eocd - 20) === ZIP64_LOCATOR_SIGNATURE)
    throw new BundleRefusedError('zip64 archives are not accepted');
  if (disk !== 0 || cdDisk !== 0 || entriesOnDisk !== totalEntries)
    throw new BundleRefusedError('multi-part zip archives are not accepted');
  if (totalEntries > maxEntries) throw new BundleRefusedError(`too many entries: ${totalEntries} (limit ${maxEntries})`);
  if (cdOffset + cdSize !== eocdOffset)
    throw new BundleRefusedError('corrupt zip: central directory does not end where the end record starts (truncated or padded file)');

  const cd = await readExactly(handle, cdOffset, cdSize);
  const entries: ZipEntryRecord[] = [];
  let pos = 0;
  for (let n = 0; n < totalEntries; n++) {
    const { entry, end } = readCentralRecord(cd, pos, n);
    entries.push(entry);
    pos = end;
  }
  if (pos !== cd.length) throw new BundleRefusedError('corrupt zip: central directory holds more records than the end record declares');
  return { entries, centralDirectoryOffset: cdOffset };
}

/** The central directory record at `pos` (the `n`th, from 0) and where the next one starts; a damaged one is refused. */
function readCentralRecord(cd: Buffer, pos: number, n: number): { entry: ZipEntryRecord; end: number } {
  if (pos + CENTRAL_HEADER_SIZE > cd.length || cd.readUInt32LE(pos) !== CENTRAL_SIGNATURE) {
    throw new BundleRefusedError(`corrupt zip: central directory record ${n + 1} is damaged`);
  }
  const nameLength = cd.readUInt16LE(pos + 28);
  const extraLength = cd.readUInt16LE(pos + 30);
  const commentLength = cd.readUInt16LE(pos + 32);
  const end = pos + CENTRAL_HEADER_SIZE + nameLength + extraLength + commentLength;
  if (end > cd.length) throw new BundleRefusedError(`corrupt zip: central directory record ${n + 1} is cut short`);
  const rawName = Buffer.from(cd.subarray(pos + CENTRAL_HEADER_SIZE, pos + CENTRAL_HEADER_SIZE + nameLength));
  let name: string;
  try {
    name = utf8.decode(rawName);
  } catch {
    throw new BundleRefusedError(`entry name is not valid UTF-8: ${JSON.stringify(rawName.toString('latin1'))}`);
  }
  const compressedSize = cd.readUInt32LE(pos + 20);
  const uncompressedSize = cd.readUInt32LE(pos + 24);
  const localHeaderOffset = cd.readUInt32LE(pos + 42);
  if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
    throw new BundleRefusedError(`zip64 entries are not accepted: ${JSON.stringify(name)}`);
  }
  const entry: ZipEntryRecord = {
    rawName,
    name,
    flags: cd.readUInt16LE(pos + 8),
    method: cd.readUInt16LE(pos + 10),
    crc32: cd.readUInt32LE(pos + 16),
    compressedSize,
    uncompressedSize,
    madeByOs: cd.readUInt8(pos + 5),
    externalAttributes: cd.readUInt32LE(pos + 38),
    localHeaderOffset,
  };
  return { entry, end };
}

/** Reads exactly `length` bytes at `position`, or refuses the file as truncated. */
export async function readExactly(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let done = 0;
  // Bounded: each pass reads at least one byte or stops.
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) throw new BundleRefusedError('corrupt zip: file is truncated');
    done += bytesRead;
  }
  return buffer;
}
