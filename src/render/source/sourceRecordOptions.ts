import type { SourceRecordOptions } from './readDocsSource.js';

/**
 * Whether and where an export keeps its source record: only with an incremental cache (the record
 * lives in it) and the source's stats taken before the read (the export worker's, see
 * takeSourceStats), which say which recorded files may be trusted. A full export reads every file
 * but still writes the record for the next one.
 */
export function sourceRecordOptions(opts: {
  incremental?: { dir: string; full?: boolean };
  sourceStats?: readonly string[];
  generatorVersion: string;
}): SourceRecordOptions | undefined {
  if (!opts.incremental || !opts.sourceStats) return undefined;
  return { dir: opts.incremental.dir, rendererVersion: opts.generatorVersion, stats: opts.sourceStats, readAll: opts.incremental.full };
}
