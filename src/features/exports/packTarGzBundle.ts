import { open, rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { writeTarGz } from '../../bundle/tar/writeTarGz.js';
import { readZipDirectory } from '../../bundle/zip/readZipDirectory.js';
import { entryStages, locateEntryData } from '../../bundle/zip/zipEntryData.js';
import { randomId } from '../../platform/randomId.js';
import { sha256OfFile } from '../../platform/sha256OfFile.js';

/** A job's bundle packed as `.tar.gz`, beside its zip. */
export interface PackedTarGz {
  file: string;
  sizeBytes: number;
  sha256: string;
}

/** The zip's entries are ours (the job wrote them), so this cap only guards against a damaged file. */
const MAX_ENTRIES = 10_000_000;

/**
 * Repacks a job's zip as a `.tar.gz` at `outPath` (same files, same names, same order), for
 * callers that download `bundle.tar.gz` as the hosted examples do. Written under a temporary
 * name and renamed, so a reader never sees half a file; `mtime` stamps every entry, so packing
 * the same zip twice gives the same bytes.
 */
export async function packTarGzBundle(zipPath: string, outPath: string, mtime: Date): Promise<Omit<PackedTarGz, 'file'>> {
  const handle = await open(zipPath, 'r');
  const temp = `${outPath}.${randomId('tmp_')}`;
  try {
    const { size } = await handle.stat();
    const directory = await readZipDirectory(handle, size, MAX_ENTRIES);
    const files = directory.entries.filter((e) => !e.name.endsWith('/'));
    const located = await locateEntryData(handle, files, directory.centralDirectoryOffset);
    const entries = located.map((item) => ({
      name: item.entry.name,
      size: item.entry.uncompressedSize,
      open(): NodeJS.ReadableStream {
        const [raw, inflate] = entryStages(handle, item) as [Readable, NodeJS.ReadWriteStream?];
        if (!inflate) return raw;
        // An error on either side destroys the inflater, which ends the read of this entry with it.
        pipeline(raw, inflate).catch(() => {});
        return inflate;
      },
    }));
    await writeTarGz(entries, temp, mtime);
    await rename(temp, outPath);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  } finally {
    await handle.close();
  }
  return { sizeBytes: (await stat(outPath)).size, sha256: await sha256OfFile(outPath) };
}
