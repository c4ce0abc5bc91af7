import { createHash } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listSourceFiles } from '../../../render/index.js';

/**
 * One line per source file: `path`, size, mtime and ctime in nanoseconds and inode, or
 * `path` and `racy` for a file changed too recently to be told apart by its stat (see below).
 */
export type SourceStats = string[];

/**
 * A file whose ctime is this close to the moment the stats were taken may be written again
 * within the file system's timestamp granularity without its stat changing (git's "racily
 * clean" entries): it is recorded as racy, which makes the next comparison read and hash that file.
 */
const RACY_WINDOW_NS = 1_000_000_000n;

/**
 * Stats every file of the docs source (no content read): what the next export compares to tell
 * "nothing changed" without reading 10,000 files. A write always moves ctime, which no one can
 * set back, so a file rewritten with the same size and mtime still differs. `scratchDir` gets a
 * marker file whose ctime says what "now" is on that file system. `racyWindowNs` is for tests,
 * whose files are all written within a second of the export.
 */
export async function takeSourceStats(sourceDir: string, scratchDir: string, racyWindowNs = RACY_WINDOW_NS): Promise<SourceStats> {
  const files = await listSourceFiles(sourceDir);
  const lines: SourceStats = [];
  for (const rel of files) {
    const s = statSync(join(sourceDir, rel), { bigint: true, throwIfNoEntry: false });
    lines.push(s ? `${rel}\0${s.size}\0${s.mtimeNs}\0${s.ctimeNs}\0${s.ino}` : `${rel}\0racy`);
  }
  const marker = join(scratchDir, 'source-stats.marker');
  writeFileSync(marker, '');
  const now = statSync(marker, { bigint: true }).ctimeNs;
  return lines.map((line) => {
    const ctime = line.split('\0')[3];
    return ctime !== undefined && BigInt(ctime) + racyWindowNs >= now ? `${line.slice(0, line.indexOf('\0'))}\0racy` : line;
  });
}

/** The SHA-256 of each source file's bytes as an export read them, by relative path. */
export type SourceHashes = Record<string, string>;

/** The path a stat line is about. */
const pathOf = (line: string) => line.slice(0, line.indexOf('\0'));

/**
 * Whether the source now holds what the last export read, reading only what may have changed:
 * the same files in the same order, each either with the stat recorded then (written before the
 * export read it, so unchanged since) or, where the stat differs (or was racy), with the same
 * SHA-256 now, read and hashed alone. Returns each file's hash as it is now, for the next record,
 * or null as soon as something differs (or a file can't be read).
 */
export async function unchangedSource(
  last: { stats: SourceStats; hashes: SourceHashes },
  stats: SourceStats,
  sourceDir: string,
): Promise<SourceHashes | null> {
  if (last.stats.length !== stats.length) return null;
  const hashes: SourceHashes = {};
  for (let i = 0; i < stats.length; i++) {
    const rel = pathOf(stats[i]);
    const recorded = last.hashes[rel];
    if (rel !== pathOf(last.stats[i]) || typeof recorded !== 'string') return null;
    if (stats[i] !== last.stats[i] || stats[i].endsWith('\0racy')) {
      const data = await readFile(join(sourceDir, rel)).catch(() => null);
      if (!data || createHash('sha256').update(data).digest('hex') !== recorded) return null;
    }
    hashes[rel] = recorded;
  }
  return hashes;
}
