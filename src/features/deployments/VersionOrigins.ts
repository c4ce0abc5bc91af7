import { z } from 'zod';
import { writeFileDurably } from '../../platform/store/writeFileDurably.js';
import { StoredRecords } from './StoredRecords.js';

/**
 * Where a layered version's unchanged files live. A layered version's own folder holds only the
 * files that changed since the version it was installed over; every other file of its manifest
 * is read from the version folder named here (always the one that physically holds the bytes,
 * never a chain). A version without this record holds every file itself.
 */
export interface VersionOrigins {
  /** Ids of the versions that hold some of this version's files. */
  holders: string[];
  /** Bundle path → index into `holders`, for each file this version does not hold. */
  files: Record<string, number>;
}

const originsSchema = z.object({
  holders: z.array(z.string().regex(/^[A-Za-z0-9_-]{1,100}$/)),
  files: z.record(z.string(), z.number().int().nonnegative()),
});

/** Reads a version's origins record; null for a version that holds all its files (no record). */
export async function readVersionOrigins(path: string): Promise<VersionOrigins | null> {
  try {
    return await storedOrigins.read(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Validates an origins record's text: its shape, and that each index names a listed holder. */
function parseOrigins(text: string): VersionOrigins {
  const origins = originsSchema.parse(JSON.parse(text));
  for (const index of Object.values(origins.files))
    if (index >= origins.holders.length) throw new Error('origins.json names a holder it does not list');
  return origins;
}

/** Origins records read or written in this process (installs remember theirs; see StoredRecords). */
export const storedOrigins = new StoredRecords(parseOrigins);

/** Builds the record from a holder id per path; null when there is none (the version holds everything). */
export function versionOrigins(holderOf: ReadonlyMap<string, string>): VersionOrigins | null {
  if (holderOf.size === 0) return null;
  const holders: string[] = [];
  const index = new Map<string, number>();
  const files: Record<string, number> = {};
  for (const [path, holder] of holderOf) {
    let i = index.get(holder);
    if (i === undefined) {
      i = holders.push(holder) - 1;
      index.set(holder, i);
    }
    files[path] = i;
  }
  return { holders, files };
}

/** Writes (or replaces, atomically) a version's origins record. */
export async function writeVersionOrigins(path: string, origins: VersionOrigins): Promise<void> {
  await writeFileDurably(path, JSON.stringify(origins), 0o644);
}
