import { join } from 'node:path';
import { z } from 'zod';
import type { RunLayout } from '../../bundle/BundleSink.js';
import { readChecksummedFile, writeChecksummedFile } from '../../platform/store/checksummedFile.js';

/** Bumped whenever what the record holds, or how runs are cut or deflated, changes. */
export const DEFLATE_RUNS_FORMAT = 1;

/** The record's file in the site's cache folder. */
const FILE = 'deflate-runs.json';

const storedSchema = z.object({
  format: z.literal(DEFLATE_RUNS_FORMAT),
  layouts: z.array(
    z.object({
      path: z.string(),
      size: z.number().int().nonnegative(),
      sha256: z.string(),
      crc: z.number().int(),
      compressedSize: z.number().int().nonnegative(),
      runs: z.array(z.tuple([z.string(), z.number().int().positive(), z.number().int().positive()])),
    }),
  ),
});

/**
 * How the last export's zip deflated its streamed files (`<dir>/deflate-runs.json`, see
 * RunLayout), so the next export copies their unchanged runs from that zip instead of deflating
 * ~85 MB of text again on a 10,000-page site. Checksummed like the other records: a truncated
 * or altered one reads as empty. It is only a claim about the previous zip, checked against it
 * (PreviousRuns) before a byte is copied; it follows the page cache's fate (`"full": true` or a
 * discarded cache ignore it).
 */
export const DeflateRunsRecord = {
  /** The layouts recorded in `dir` (none when missing, damaged, of another format, or when `ignore` is set). */
  async read(dir: string, ignore = false): Promise<RunLayout[]> {
    if (ignore) return [];
    const text = await readChecksummedFile(join(dir, FILE));
    if (text === null) return [];
    try {
      return storedSchema.parse(JSON.parse(text)).layouts;
    } catch {
      return [];
    }
  },

  /** Writes `layouts` as the record in `dir`; a record that can't be written only costs the next export its copies. */
  async save(dir: string, layouts: readonly RunLayout[]): Promise<void> {
    await writeChecksummedFile(join(dir, FILE), JSON.stringify({ format: DEFLATE_RUNS_FORMAT, layouts })).catch(() => {});
  },
};
