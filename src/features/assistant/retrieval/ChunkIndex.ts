import { readFile, stat } from 'node:fs/promises';
import type { SectionChunk } from '../../../render/index.js';
import type { PageScope, SearchFilter } from './Retriever.js';

/** A chunk with its fields lower-cased once, at load, for the substring matching of the ranking. */
export interface IndexedChunk {
  chunk: SectionChunk;
  title: string;
  section: string;
  description: string;
  body: string;
}

/** The chunk file could not be used (too big, unreadable, not chunk lines). */
export class ChunkIndexError extends Error {}

/**
 * One deployed version's section chunks, in memory (see render's sectionChunks.ts). Loaded once
 * per version from the bundle's chunk file; nothing is parsed from MDX here.
 */
export class ChunkIndex {
  /** The first language and version the chunks name: the navigation's defaults. */
  readonly defaults: { language: string | null; version: string | null };
  private readonly pages = new Map<string, PageScope>();

  private constructor(readonly chunks: IndexedChunk[]) {
    let language: string | null = null;
    let version: string | null = null;
    for (const { chunk } of chunks) {
      language ??= chunk.language;
      version ??= chunk.version;
      if (!this.pages.has(chunk.path))
        this.pages.set(chunk.path, { language: chunk.language, version: chunk.version, product: chunk.product });
    }
    this.defaults = { language, version };
  }

  /** Builds an index from chunks (tests, and the loader below). */
  static of(chunks: SectionChunk[]): ChunkIndex {
    return new ChunkIndex(
      chunks.map((chunk) => ({
        chunk,
        title: chunk.title.toLowerCase(),
        section: chunk.section.toLowerCase(),
        description: chunk.description.toLowerCase(),
        body: chunk.content.toLowerCase(),
      })),
    );
  }

  /**
   * Reads a chunk file; refuses one over `maxBytes` (memory bound: the file is held as text while
   * it is parsed). A missing file (a bundle exported before chunks existed) is an empty index.
   */
  static async load(file: string, maxBytes: number): Promise<ChunkIndex> {
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ChunkIndex.of([]);
      throw err;
    }
    if (size > maxBytes) throw new ChunkIndexError(`section chunk file is ${size} bytes, over assistant.maxIndexBytes (${maxBytes})`);
    const chunks: SectionChunk[] = [];
    for (const line of (await readFile(file, 'utf8')).split('\n')) {
      if (line === '') continue;
      const value = JSON.parse(line) as SectionChunk;
      if (typeof value?.path !== 'string' || typeof value.content !== 'string') throw new ChunkIndexError('not a section chunk file');
      chunks.push(value);
    }
    return ChunkIndex.of(chunks);
  }

  /** The scope of page `path` (no leading slash), or undefined when the version has no such listed page. */
  scopeOf(path: string): PageScope | undefined {
    return this.pages.get(path);
  }

  /** True when `chunk` passes `filter`, with unset version and language meaning the defaults. */
  admits(chunk: SectionChunk, filter: SearchFilter | undefined): boolean {
    const version = filter?.version ?? this.defaults.version;
    const language = filter?.language ?? this.defaults.language;
    if (version !== null && chunk.version !== null && chunk.version !== version) return false;
    if (language !== null && chunk.language !== null && chunk.language !== language) return false;
    if (filter?.tag !== undefined && chunk.tag !== filter.tag) return false;
    return true;
  }
}
