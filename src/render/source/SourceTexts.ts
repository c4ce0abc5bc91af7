import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Files whose text the site pre-pass needs: pages and snippets (frontmatter, fence languages). */
export const TEXT_FILE = /\.(?:mdx?|jsx|tsx)$/i;

/**
 * The texts of a source's pages and snippets, read when first asked for. The export reads only
 * the files whose stat changed since the last one (see readDocsSource); a page that is rendered
 * anyway (its body not in the cache, or an input of every page changed) asks for its text here.
 * A text read late must be the one the page's key was derived from, so it is checked against the
 * SHA-256 recorded for its file: a file changed since fails the export, as a change during the
 * source's read always has. A Map, so it crosses to render threads (as a plain Map: rewrap it there).
 */
export class SourceTexts extends Map<string, string> {
  private sourceDir = '';
  private hashes: ReadonlyMap<string, string> = new Map();

  /** `texts` already read; `hashes`, every file's SHA-256, says which others may be read late. */
  static over(sourceDir: string, hashes: ReadonlyMap<string, string>, texts: Iterable<[string, string]>): SourceTexts {
    const lazy = new SourceTexts(texts);
    lazy.sourceDir = sourceDir;
    lazy.hashes = hashes;
    return lazy;
  }

  override get(rel: string): string | undefined {
    const known = super.get(rel);
    const expected = known === undefined && TEXT_FILE.test(rel) ? this.hashes.get(rel) : undefined;
    if (expected === undefined) return known;
    let data: Buffer;
    try {
      data = readFileSync(join(this.sourceDir, rel));
    } catch (err) {
      throw new Error(`docs source changed while reading ${rel}: ${(err as NodeJS.ErrnoException).code ?? 'EIO'}`);
    }
    if (createHash('sha256').update(data).digest('hex') !== expected) throw new Error(`docs source changed while reading ${rel}: content`);
    const text = data.toString('utf8');
    this.set(rel, text);
    return text;
  }
}
