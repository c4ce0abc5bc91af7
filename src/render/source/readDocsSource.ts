import { createHash } from 'node:crypto';
import { listSourceFiles } from './listSourceFiles.js';
import { readFilesInOrder, SourceReadError } from './readFilesInOrder.js';

/** Files whose text the site pre-pass needs: pages and snippets (frontmatter, fence languages). */
const TEXT_FILE = /\.(?:mdx?|jsx|tsx)$/i;

/** One read of a docs source: what is in it, its hash, and the text of its Markdown and JSX files. */
export interface DocsSource {
  /** Every file, as sorted POSIX paths relative to the source folder (see listSourceFiles). */
  files: string[];
  /** See hashDocsSource. */
  hash: string;
  /** Text of every .md/.mdx/.jsx/.tsx file by relative path. */
  texts: Map<string, string>;
  /**
   * SHA-256 over the paths and contents of every file not in `texts` (OpenAPI specs, images,
   * custom CSS and JS, docs.json): the incremental export treats them as inputs of every page.
   */
  otherHash: string;
  /**
   * The SHA-256 of each file's bytes as this read saw them, by relative path: the export worker
   * keeps them beside the files' stats, so its next "nothing changed" check reads and hashes only
   * the files whose stat differs instead of the whole source.
   */
  fileHashes: Map<string, string>;
}

/**
 * Reads every file of a docs source once: the hash covers all of them, and the text of pages
 * and snippets is kept for the pre-pass (frontmatter, fence languages) and for rendering the
 * pages, which used to read each page again for every purpose.
 */
export async function readDocsSource(sourceDir: string): Promise<DocsSource> {
  const files = await listSourceFiles(sourceDir);
  const hash = createHash('sha256');
  const texts = new Map<string, string>();
  const other = createHash('sha256');
  const fileHashes = new Map<string, string>();
  try {
    await readFilesInOrder(sourceDir, files, (rel, data) => {
      // Length-prefix both parts so "a"+"bc" and "ab"+"c" can never collide.
      hash.update(`${Buffer.byteLength(rel)}:${rel}\0${data.length}:`);
      hash.update(data);
      fileHashes.set(rel, createHash('sha256').update(data).digest('hex'));
      if (TEXT_FILE.test(rel)) texts.set(rel, data.toString('utf8'));
      else other.update(`${Buffer.byteLength(rel)}:${rel}\0${data.length}:`).update(data);
    });
  } catch (err) {
    if (err instanceof SourceReadError) throw new Error(`docs source changed while reading ${err.file}: ${err.code}`);
    throw err;
  }
  return { files, hash: hash.digest('hex'), texts, otherHash: other.digest('hex'), fileHashes };
}
