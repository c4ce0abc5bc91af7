import { readFile, stat } from 'node:fs/promises';
import type { SectionChunk } from '../../../render/index.js';
import { JoinedStrings } from './JoinedStrings.js';
import { type IndexedPage, type Postings, SectionIndex } from './SectionIndex.js';

/** The chunk file could not be used (too big, unreadable, not chunk lines). */
export class SectionIndexError extends Error {}

const WORD_SPLIT = /[^\p{L}\p{N}_]+/u;

/**
 * Builds the index of a chunk file (render's sectionChunks.ts: one JSON object per line, a page's
 * sections together). Refuses a file over `maxBytes`: it is read whole while the index is built.
 * A missing file (a bundle exported before chunks existed) gives an empty index.
 */
export async function buildSectionIndex(file: string, maxBytes: number): Promise<SectionIndex> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fromLines(Buffer.alloc(0));
    throw err;
  }
  if (size > maxBytes) throw new SectionIndexError(`section chunk file is ${size} bytes, over assistant.maxIndexBytes (${maxBytes})`);
  return fromLines(await readFile(file));
}

/** The index of the chunk lines in `bytes`. */
function fromLines(bytes: Buffer): SectionIndex {
  const pages: IndexedPage[] = [];
  const sectionPage: number[] = [];
  const sectionHeading: string[] = [];
  const sectionAnchor: string[] = [];
  const lineStart: number[] = [];
  const lineLength: number[] = [];
  const descriptions: string[] = [];
  const words = new PostingsBuilder();
  for (let start = 0; start < bytes.length; ) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    if (end > start) {
      const chunk = parseChunk(bytes.toString('utf8', start, end));
      const id = sectionPage.length;
      let page = pages[pages.length - 1];
      if (!page || page.path !== chunk.path) {
        page = {
          path: chunk.path,
          title: chunk.title,
          titleLower: chunk.title.toLowerCase(),
          language: chunk.language,
          version: chunk.version,
          product: chunk.product,
          tag: chunk.tag,
          first: id,
          count: 0,
        };
        pages.push(page);
        descriptions.push(chunk.description.toLowerCase());
      }
      page.count++;
      sectionPage.push(pages.length - 1);
      sectionHeading.push(chunk.section);
      sectionAnchor.push(chunk.anchor);
      lineStart.push(start);
      lineLength.push(end - start);
      words.add(id, chunk.content);
    }
    start = end + 1;
  }
  return new SectionIndex({
    pages,
    sectionPage: Int32Array.from(sectionPage),
    sectionHeading,
    sectionAnchor,
    lineStart: Float64Array.from(lineStart),
    lineLength: Int32Array.from(lineLength),
    titles: new JoinedStrings(pages.map((p) => p.titleLower)),
    descriptions: new JoinedStrings(descriptions),
    headings: new JoinedStrings(sectionHeading.map((h) => h.toLowerCase())),
    ...words.finish(),
  });
}

/** One line of the chunk file, checked for the fields the index reads. */
export function parseChunk(line: string): SectionChunk {
  const c = JSON.parse(line) as SectionChunk;
  if (typeof c?.path !== 'string' || typeof c.title !== 'string' || typeof c.content !== 'string' || typeof c.section !== 'string')
    throw new SectionIndexError('not a section chunk file');
  return c;
}

/** The body words of every section, and which sections hold each how often. */
class PostingsBuilder {
  private readonly words = new Map<string, number>();
  private readonly ids: number[][] = [];
  private readonly counts: number[][] = [];

  /** Adds the words of section `id`'s text. */
  add(id: number, text: string): void {
    for (const [word, count] of wordCounts(text)) {
      let w = this.words.get(word);
      if (w === undefined) {
        w = this.ids.length;
        this.words.set(word, w);
        this.ids.push([]);
        this.counts.push([]);
      }
      this.ids[w].push(id);
      this.counts[w].push(Math.min(count, 0xffff));
    }
  }

  /** The vocabulary and postings, in typed arrays (a quarter of the memory of number arrays). */
  finish(): { vocabulary: JoinedStrings; postings: Postings[] } {
    const postings = this.ids.map((ids, w) => ({ ids: Int32Array.from(ids), counts: Uint16Array.from(this.counts[w]) }));
    return { vocabulary: new JoinedStrings([...this.words.keys()]), postings };
  }
}

/** How often each word (lower-case run of letters, digits, `_`) occurs in `text`. */
function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().split(WORD_SPLIT)) if (word !== '') counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}
