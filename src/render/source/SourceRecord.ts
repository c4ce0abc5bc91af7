import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readChecksummedBytes, writeChecksummedFile } from '../../platform/store/checksummedFile.js';
import { deserialize, serialize } from 'node:v8';
import type { Frontmatter } from '../mdx/readFrontmatter.js';

/** What an export takes from a page or snippet file besides its text (see readDocsSource). */
export interface TextFacts {
  /** The frontmatter as readFrontmatter parsed it, and the warnings it gave, in order. */
  frontmatter: Frontmatter;
  warnings: string[];
  /** The fence languages the text names, lower-cased, in order of first use (see fenceLanguagesOf). */
  fences: string[];
}

/** One file as the last export read it: its stat line then, its SHA-256, and its facts if it is a text file. */
export interface RecordedFile {
  stat: string;
  hash: string;
  facts?: TextFacts;
}

/** Bumped whenever what a record holds, or how a fact is derived, changes. */
const FORMAT = 1;
/** The record's file in the site's incremental cache folder. */
const FILE = 'source-record.bin';

/**
 * What the record must have been written by to be trusted: its format, the renderer (whose code
 * derives the facts) and Node's serializer (whose format the blob is in).
 */
const stampOf = (rendererVersion: string) => `${FORMAT}\0${rendererVersion}\0${process.versions.v8}`;

/**
 * The site's source record, by path: what each file held when the last export read it, so a file
 * whose stat is unchanged needn't be read again. The file is a SHA-256 line, a stamp line and a
 * V8-serialized Map (which keeps frontmatter exactly, `undefined` fields included); a missing,
 * truncated, altered or foreign record reads as null and the export reads every file.
 */
export async function readSourceRecord(dir: string, rendererVersion: string): Promise<Map<string, RecordedFile> | null> {
  const data = await readChecksummedBytes(join(dir, FILE));
  const stampEnd = data?.indexOf(0x0a) ?? -1;
  if (!data || stampEnd < 0 || data.toString('utf8', 0, stampEnd) !== stampOf(rendererVersion)) return null;
  try {
    const files = deserialize(data.subarray(stampEnd + 1)) as unknown;
    return files instanceof Map ? (files as Map<string, RecordedFile>) : null;
  } catch {
    return null;
  }
}

/**
 * Replaces the site's source record (a temporary file renamed over it, so a racing export reads
 * the old record or the new one, never half of one). An entry is true of its file whoever wrote
 * it: its stat was taken before the read. A record that can't be written only costs the next
 * export its reads.
 */
export async function writeSourceRecord(dir: string, rendererVersion: string, files: Map<string, RecordedFile>): Promise<void> {
  const body = Buffer.concat([Buffer.from(`${stampOf(rendererVersion)}\n`), serialize(files)]);
  try {
    await mkdir(dir, { recursive: true });
    await writeChecksummedFile(join(dir, FILE), body);
  } catch {
    // The next export reads every file.
  }
}
