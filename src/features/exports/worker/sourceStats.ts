import { statSync, writeFileSync } from 'node:fs';
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
 * clean" entries): it is recorded as racy, which makes the next comparison read the source.
 */
const RACY_WINDOW_NS = 1_000_000_000n;

/**
 * Stats every file of the docs source (no content read): what the next export compares to tell
 * "nothing changed" without reading 10,000 files. A write always moves ctime, which no one can
 * set back, so a file rewritten with the same size and mtime still differs. `scratchDir` gets a
 * marker file whose ctime says what "now" is on that file system.
 */
export async function takeSourceStats(sourceDir: string, scratchDir: string): Promise<SourceStats> {
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
    return ctime !== undefined && BigInt(ctime) + RACY_WINDOW_NS >= now ? `${line.slice(0, line.indexOf('\0'))}\0racy` : line;
  });
}

/** Whether two stat lists say the same files with the same stats (a racy line never matches). */
export function sameSourceStats(a: SourceStats, b: SourceStats): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] || a[i].endsWith('\0racy')) return false;
  return true;
}
