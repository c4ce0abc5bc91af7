import { join } from 'node:path';
import type { BundleFile } from '../../bundle/BundleSink.js';
import { readChecksummedFile, writeChecksummedFile } from '../../platform/store/checksummedFile.js';

/** Bumped whenever what an output record holds, or what an output key covers, changes. */
export const PAGE_OUTPUTS_FORMAT = 2;

/** The record's file in the site's cache folder. */
const FILE = 'outputs.json';

/**
 * What one page came out as in the last export: the key of everything its files depend on
 * (IncrementalRender.outputKey), the files as the bundle lists them (its HTML and Markdown copy),
 * and the source files its HTML references (for AssetAccess, which would otherwise scan it).
 */
export interface PageOutput {
  key: string;
  files: BundleFile[];
  refs: string[];
}

/** The record on disk: `[key, refs, [path, size, sha256][]]` per page path. */
interface Stored {
  format: number;
  pages: Record<string, [string, string[], [string, number, string][]]>;
}

/**
 * The output keys of a site's last export, kept beside its page bodies (`<dir>/outputs.json`),
 * so the next export can take an unchanged page's files from the previous bundle without
 * assembling or hashing them. One file for the whole site, read once. It starts with the SHA-256
 * of the rest: a truncated or altered record reads as empty (every page is assembled afresh).
 * The record is only a claim: a page's files are taken only when the previous bundle's manifest
 * lists the same SHA-256s, so a record from another export than the previous bundle's costs
 * assembling, never a wrong page.
 */
export class PageOutputs {
  private constructor(private readonly pages: Map<string, PageOutput>) {}

  /** Reads the record in `dir` (empty when missing, damaged, of another format, or when `ignore` is set). */
  static async open(dir: string, ignore = false): Promise<PageOutputs> {
    const empty = new PageOutputs(new Map());
    if (ignore) return empty;
    const text = await readChecksummedFile(join(dir, FILE));
    if (text === null) return empty;
    try {
      const stored = JSON.parse(text) as Stored;
      if (stored.format !== PAGE_OUTPUTS_FORMAT) return empty;
      const pages = new Map<string, PageOutput>();
      for (const [path, [key, refs, files]] of Object.entries(stored.pages))
        pages.set(path, { key, refs, files: files.map(([p, size, hash]) => ({ path: p, size, sha256: hash })) });
      return new PageOutputs(pages);
    } catch {
      return empty;
    }
  }

  /** The page's last output if it was made from inputs with this output key. */
  get(path: string, key: string): PageOutput | undefined {
    const output = this.pages.get(path);
    return output?.key === key ? output : undefined;
  }

  /** Writes `pages` as the record in `dir` (whole, under a temporary name first, so a racing export reads one or the other). */
  static async save(dir: string, pages: ReadonlyMap<string, PageOutput>): Promise<void> {
    const stored: Stored = { format: PAGE_OUTPUTS_FORMAT, pages: {} };
    for (const [path, o] of pages) stored.pages[path] = [o.key, o.refs, o.files.map((f) => [f.path, f.size, f.sha256])];
    await writeChecksummedFile(join(dir, FILE), JSON.stringify(stored));
  }
}
