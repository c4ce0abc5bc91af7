import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { BundleSink } from '../BundleSink.js';
import type { EntryContent } from './prepareZipEntry.js';
import { SpillFile } from './SpillFile.js';
import { writeZipArchive, type WrittenArchive } from './writeZipArchive.js';
import { ZipEntryCompressor } from './ZipEntryCompressor.js';
import { ZipEntryStore } from './ZipEntryStore.js';
import { writeManifest } from '../bundleManifest.js';
import { describeBytes } from '../BundleSink.js';
import { crc32 } from 'node:zlib';
import type { CopiedEntry, PreviousBundle } from './PreviousBundle.js';
import { StreamedFiles } from './StreamedFiles.js';

/** What packing produced. */
export type PackedBundle = WrittenArchive;

/** A sink that builds a zip; `finish` writes it. */
export interface ZipSink extends BundleSink {
  /**
   * Writes the archive to `zipPath` (beside it first, fsynced and renamed, so a crash never
   * leaves a half zip under the final name). Entries are sorted by path and dated `now`, so
   * the zip depends only on the content, not on the order pages finished in.
   */
  finish(zipPath: string, now: Date): Promise<PackedBundle>;
  /**
   * Stops the compression thread; later writes are prepared on the calling thread. A scratch file
   * is removed by `finish` only: an export that fails leaves it in its run folder, which the
   * queue removes with the rest of the run.
   */
  close(): Promise<void>;
  /** Entries whose compressed bytes were copied from the previous bundle so far. */
  reusedEntries(): number;
  /** Deflate runs of streamed files copied from the previous bundle so far (see prepareStreamedEntry). */
  copiedRuns(): number;
}

/**
 * Packs the bundle as it is rendered: each file is deflated the moment it arrives and only its
 * compressed bytes are kept, so no site folder is ever written, read back and packed. With
 * `thread`, entries are prepared on a thread of their own (see ZipEntryCompressor) while
 * rendering goes on. With `spillPath`, compressed entries wait in that scratch file rather than
 * in memory (see SpillFile). `finish` streams the archive out entry by entry (writeZipArchive)
 * and removes the scratch file.
 */
export function createZipSink(options: { thread?: boolean; spillPath?: string; previous?: PreviousBundle | null } = {}): ZipSink {
  const compressor = new ZipEntryCompressor(options.thread ?? false);
  const spill = options.spillPath ? new SpillFile(options.spillPath) : null;
  const entries = new ZipEntryStore(spill);
  const previous = options.previous ?? null;
  let reused = 0;
  const streamed = new StreamedFiles(previous);
  const put = (rel: string, content: EntryContent) => {
    const entry = reusedEntry(previous, rel, content);
    if (entry) reused++;
    return entries.store(rel, entry ? Promise.resolve(entry) : compressor.prepare(rel, content));
  };

  const sink: ZipSink = {
    write: put,
    reuse(file) {
      const entry = previous?.lookup(file);
      if (!entry) return false;
      reused++;
      void entries.store(file.path, Promise.resolve(entry));
      return true;
    },
    reuseRuns: (layouts) => streamed.reuseRuns(layouts),
    writeParts: (rel, parts) => entries.store(rel, streamed.prepare(rel, parts)),
    streamedRuns: () => streamed.layouts(),
    copy: async (from, rel) => put(rel, await readFile(from)),
    read: (rel) => entries.read(rel),
    files: () => entries.files(),
    writeManifest: (fields) => writeManifest(sink, fields),
    close: () => compressor.close(),
    reusedEntries: () => reused,
    copiedRuns: () => streamed.copiedRuns,

    async finish(zipPath, now) {
      // Nothing else is left to do here: this thread deflates beside the compression thread.
      await compressor.drain();
      await entries.settled();
      await compressor.close();
      try {
        const archive = entries.archiveEntries();
        await mkdir(dirname(zipPath), { recursive: true });
        const written = await writeZipArchive(zipPath, archive, now);
        entries.clear();
        return written;
      } finally {
        spill?.remove();
        previous?.close();
      }
    },
  };
  return sink;
}

/**
 * The previous bundle's entry for `content` at `rel` when it holds the same bytes: hashing is far
 * cheaper than deflating. Only hashed when the previous bundle has a file of that size there.
 */
function reusedEntry(previous: PreviousBundle | null, rel: string, content: EntryContent): CopiedEntry | undefined {
  const size = typeof content === 'string' ? Buffer.byteLength(content) : content.length;
  if (!previous?.has(rel, size)) return undefined;
  // Not kept for the compressor when the entry differs: it encodes the text into a buffer it can
  // move to its thread, while bytes it was handed are copied there.
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  return previous.reuse(describeBytes(rel, bytes), crc32(bytes));
}
