import { copyFile, link, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readChecksummedFile, writeChecksummedFile } from '../../../platform/store/checksummedFile.js';
import type { ExportTaskInput, ExportTaskResult } from './exportWorkerProtocol.js';
import { type SourceHashes, type SourceStats, unchangedSource } from './sourceStats.js';

/** Bumped whenever the record's meaning changes (2: per-file hashes beside the stats). */
const FORMAT = 2;
/** The record's file in the site's incremental cache folder. */
const FILE = 'last-export.json';

/** What the last whole-site export of a site read and wrote, kept beside its incremental cache. */
interface LastExportRecord {
  format: number;
  /** The settings that shape the output (see settingsKey). */
  settings: string;
  /** The zip it wrote, as `path`, size, mtime, ctime and inode: any rewrite of the file changes one. */
  bundle: string;
  sourceHash: string;
  stats: SourceStats;
  /** Each file's SHA-256 as the export read it: only files whose stat differs are read next time. */
  hashes: SourceHashes;
  result: ExportTaskResult;
}

/**
 * Whether this job may skip its export when nothing changed: a whole-site export of the folder
 * as it is (not of a git ref: each run checks the ref out afresh, so no stat would ever match and
 * reading the checkout twice would only slow git sources, which export only new commits anyway),
 * with an incremental cache, not asked to be full.
 */
export function mayBeUnchanged(input: ExportTaskInput): boolean {
  const { render } = input;
  return !input.ref && !!render.incremental && !render.incremental.full && !render.paths && render.audience === undefined;
}

/** Everything of the job besides the source that shapes its bundle (the job id and version are checked apart). */
function settingsKey(input: ExportTaskInput): string {
  const r = input.render;
  return JSON.stringify([r.domain, r.generatorVersion, r.strict, r.keepRemoteAssets, r.allowAuthorScripts, r.shipWarnings, input.ref]);
}

/** How the zip at `path` is now on disk (null when it is gone). */
async function bundleStamp(path: string): Promise<string | null> {
  const s = await stat(path, { bigint: true }).catch(() => null);
  return s ? `${path}\0${s.size}\0${s.mtimeNs}\0${s.ctimeNs}\0${s.ino}` : null;
}

/** The site's record, or null when it is missing, damaged or of another format. */
async function readRecord(dir: string): Promise<LastExportRecord | null> {
  const text = await readChecksummedFile(join(dir, FILE));
  if (text === null) return null;
  try {
    const record = JSON.parse(text) as LastExportRecord;
    return record.format === FORMAT ? record : null;
  } catch {
    return null;
  }
}

/**
 * The "nothing changed" fast path. When the site's source (by stat, or by content where a stat
 * differs: those files alone are read, see unchangedSource), the settings, the renderer and the version are those of its last whole-site export,
 * and that export's zip is the previous bundle and unaltered on disk, the job's bundle is that
 * zip (hard-linked, or copied across file systems): the same bytes and SHA-256, with every page
 * reused and none rendered. The zip's manifest keeps the job id and time of the export that
 * built it. Returns null when the export must run. The caller records the outcome again
 * (recordExport): the link moved the zip's ctime, and the next job's previous bundle is this one.
 */
export async function reuseUnchangedExport(
  input: ExportTaskInput,
  sourceDir: string,
  stats: SourceStats,
): Promise<{ result: ExportTaskResult; sourceHash: string; hashes: SourceHashes } | null> {
  const dir = input.render.incremental?.dir;
  if (!dir || !mayBeUnchanged(input) || !input.previousBundle) return null;
  const record = await readRecord(dir);
  if (!record || record.settings !== settingsKey(input)) return null;
  if (record.bundle !== (await bundleStamp(input.previousBundle))) return null;
  const version = input.render.version ?? `${input.now.slice(0, 10)}.${record.sourceHash.slice(0, 6)}`;
  if (version !== record.result.version) return null;
  const hashes = await unchangedSource(record, stats, sourceDir);
  if (!hashes) return null;
  const target = join(input.bundleDir, record.result.file);
  await mkdir(input.bundleDir, { recursive: true });
  try {
    await link(input.previousBundle, target);
  } catch {
    await copyFile(input.previousBundle, target);
  }
  const { cacheDiscarded: _d, cacheFull: _f, ...result } = record.result;
  return {
    result: { ...result, reusedPages: result.reusedPages + result.renderedPages, renderedPages: 0, reusedZipEntries: 0 },
    sourceHash: record.sourceHash,
    hashes,
  };
}

/**
 * Records what a whole-site export read (`stats`, taken before it read the source, the hash of
 * what it read and each file's hash, by path) and wrote, for the next job's fast path. A record
 * that can't be written only costs that job its export.
 */
export async function recordExport(
  input: ExportTaskInput,
  stats: SourceStats,
  source: { hash: string; files: ReadonlyMap<string, string> | SourceHashes },
  result: ExportTaskResult,
): Promise<void> {
  const dir = input.render.incremental?.dir;
  if (!dir || !mayBeUnchanged(input)) return;
  const bundle = await bundleStamp(join(input.bundleDir, result.file));
  if (!bundle) return;
  const byPath = source.files instanceof Map ? source.files : new Map(Object.entries(source.files));
  const hashes: SourceHashes = {};
  for (const line of stats) {
    const rel = line.slice(0, line.indexOf('\0'));
    const hash = byPath.get(rel);
    // A file the export did not read (added after it listed the source) stays unknown: the next check exports.
    if (hash !== undefined) hashes[rel] = hash;
  }
  const record: LastExportRecord = { format: FORMAT, settings: settingsKey(input), bundle, sourceHash: source.hash, stats, hashes, result };
  try {
    await writeChecksummedFile(join(dir, FILE), JSON.stringify(record));
  } catch {
    // The next job exports as usual.
  }
}
