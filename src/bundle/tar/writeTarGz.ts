import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Header, Pax } from 'tar';

/** One regular file to put in the archive: its name, its exact size and a way to read it. */
export interface TarSourceEntry {
  name: string;
  size: number;
  open(): NodeJS.ReadableStream;
}

const BLOCK = 512;

/** The header block(s) of one file: a pax record first when the name does not fit ustar's fields. */
function headerBlocks(name: string, size: number, mtime: Date): Buffer[] {
  const data = { path: name, mode: 0o644, uid: 0, gid: 0, size, mtime, type: 'File' as const, uname: '', gname: '' };
  const block = Buffer.alloc(BLOCK);
  const needPax = new Header(data).encode(block, 0);
  return needPax ? [new Pax({ path: name, mtime }).encode(), block] : [block];
}

async function* archiveChunks(entries: AsyncIterable<TarSourceEntry> | Iterable<TarSourceEntry>, mtime: Date): AsyncGenerator<Buffer> {
  for await (const entry of entries) {
    yield* headerBlocks(entry.name, entry.size, mtime);
    let written = 0;
    for await (const chunk of entry.open()) {
      const bytes = chunk as Buffer;
      written += bytes.length;
      if (written > entry.size) throw new Error(`${entry.name} is longer than its ${entry.size} bytes`);
      yield bytes;
    }
    if (written !== entry.size) throw new Error(`${entry.name} holds ${written} bytes, not ${entry.size}`);
    const pad = (BLOCK - (entry.size % BLOCK)) % BLOCK;
    if (pad > 0) yield Buffer.alloc(pad);
  }
  // The end of a tar: two zero blocks.
  yield Buffer.alloc(2 * BLOCK);
}

/**
 * Writes `entries` (regular files, in order) as a gzip-compressed POSIX tar at `outPath`, which
 * must not exist yet. Every entry gets the same owner (0), mode (0644) and `mtime`, so the
 * same files give the same bytes. Long names get a pax record, as `tar` itself writes them.
 */
export async function writeTarGz(
  entries: AsyncIterable<TarSourceEntry> | Iterable<TarSourceEntry>,
  outPath: string,
  mtime: Date,
): Promise<void> {
  await pipeline(
    Readable.from(archiveChunks(entries, mtime)),
    createGzip({ level: 9 }),
    createWriteStream(outPath, { flags: 'wx', mode: 0o644 }),
  );
}
