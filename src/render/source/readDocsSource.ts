import { createHash } from 'node:crypto';
import { fenceLanguagesOf } from '../code/scanFenceLanguages.js';
import { readFrontmatter } from '../mdx/readFrontmatter.js';
import { listSourceFiles } from './listSourceFiles.js';
import { readFilesInOrder, SourceReadError } from './readFilesInOrder.js';
import { type RecordedFile, readSourceRecord, type TextFacts, writeSourceRecord } from './SourceRecord.js';
import { sourceHashes } from './sourceHashes.js';
import { SourceTexts, TEXT_FILE } from './SourceTexts.js';

/** One read of a docs source: what is in it, its hash, and the text of its Markdown and JSX files. */
export interface DocsSource {
  /** Every file, as sorted POSIX paths relative to the source folder (see listSourceFiles). */
  files: string[];
  /** See hashDocsSource. */
  hash: string;
  /**
   * Text of every .md/.mdx/.jsx/.tsx file by relative path: those this read took, and the others
   * read when first asked for (see SourceTexts).
   */
  texts: Map<string, string>;
  /** Frontmatter and fence languages of every .md/.mdx/.jsx/.tsx file, read or recorded. */
  facts: Map<string, TextFacts>;
  /**
   * SHA-256 over the paths and contents of every file not in `texts` (OpenAPI specs, images,
   * custom CSS and JS, docs.json): the incremental export treats them as inputs of every page.
   */
  otherHash: string;
  /**
   * The SHA-256 of each file's bytes as this read saw them (or as recorded, for a file not read),
   * by relative path: the export worker keeps them beside the files' stats, so its next "nothing
   * changed" check reads and hashes only the files whose stat differs instead of the whole source.
   */
  fileHashes: Map<string, string>;
}

/** Where an export keeps the source record, and the stats that say which files it may trust. */
export interface SourceRecordOptions {
  /** The site's incremental cache folder. */
  dir: string;
  /** The renderer's version: a record of another one is not trusted. */
  rendererVersion: string;
  /**
   * One line per file, `path` then its stat, taken before this read (see takeSourceStats in the
   * export worker); a line ending in `racy` is never trusted.
   */
  stats: readonly string[];
  /** Read every file even where the record would serve (a full export); the record is still written. */
  readAll?: boolean;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** What an export needs of a page or snippet besides its text. */
function factsOf(text: string): TextFacts {
  const warnings: string[] = [];
  const frontmatter = readFrontmatter(text, (m) => warnings.push(m));
  return { frontmatter, warnings, fences: fenceLanguagesOf(text) };
}

/**
 * Reads a docs source once: the hash covers every file, and the text of pages and snippets is
 * kept for the pre-pass (frontmatter, fence languages) and for rendering the pages, which used
 * to read each page again for every purpose. With `record`, a file whose stat is the one recorded
 * by an earlier export (size, mtime, ctime and inode: a write always moves ctime, which no one
 * can set back) is not read: its SHA-256, frontmatter and fences come from the site's source
 * record, and its text is read only if a page must render from it.
 */
export async function readDocsSource(sourceDir: string, record?: SourceRecordOptions): Promise<DocsSource> {
  const files = await listSourceFiles(sourceDir);
  const recorded = record && !record.readAll ? await readSourceRecord(record.dir, record.rendererVersion) : null;
  const statOf = new Map<string, string>();
  for (const line of record?.stats ?? []) if (!line.endsWith('\0racy')) statOf.set(line.slice(0, line.indexOf('\0')), line);
  const fileHashes = new Map<string, string>();
  const facts = new Map<string, TextFacts>();
  const next = new Map<string, RecordedFile>();
  const toRead: string[] = [];
  for (const rel of files) {
    const stat = statOf.get(rel);
    const known = stat === undefined ? undefined : recorded?.get(rel);
    if (known && known.stat === stat && (known.facts !== undefined) === TEXT_FILE.test(rel)) {
      fileHashes.set(rel, known.hash);
      if (known.facts) facts.set(rel, known.facts);
      next.set(rel, known);
    } else toRead.push(rel);
  }
  const texts: [string, string][] = [];
  try {
    await readFilesInOrder(sourceDir, toRead, (rel, data) => {
      const hash = sha256(data);
      fileHashes.set(rel, hash);
      const text = TEXT_FILE.test(rel) ? data.toString('utf8') : undefined;
      const fileFacts = text === undefined ? undefined : factsOf(text);
      if (text !== undefined) texts.push([rel, text]);
      if (fileFacts) facts.set(rel, fileFacts);
      const stat = statOf.get(rel);
      if (stat !== undefined) next.set(rel, { stat, hash, ...(fileFacts ? { facts: fileFacts } : {}) });
    });
  } catch (err) {
    if (err instanceof SourceReadError) throw new Error(`docs source changed while reading ${err.file}: ${err.code}`);
    throw err;
  }
  if (record && (toRead.length > 0 || next.size !== recorded?.size)) await writeSourceRecord(record.dir, record.rendererVersion, next);
  const ordered = inFileOrder(files, fileHashes, facts);
  return { files, ...sourceHashes(files, fileHashes), texts: SourceTexts.over(sourceDir, ordered.fileHashes, texts), ...ordered };
}

/** The maps in the order of `files`, whichever files were read and which recorded: as a whole read gives them. */
function inFileOrder(files: readonly string[], fileHashes: ReadonlyMap<string, string>, facts: ReadonlyMap<string, TextFacts>) {
  const ordered = { fileHashes: new Map<string, string>(), facts: new Map<string, TextFacts>() };
  for (const rel of files) {
    ordered.fileHashes.set(rel, fileHashes.get(rel)!);
    const fileFacts = facts.get(rel);
    if (fileFacts) ordered.facts.set(rel, fileFacts);
  }
  return ordered;
}
