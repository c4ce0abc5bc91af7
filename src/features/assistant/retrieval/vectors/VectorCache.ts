import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Section vectors on disk under the data dir, keyed by a hash of the embedded text, one
 * append-only file per embedding model: a redeploy whose sections did not change finds every
 * vector here and asks the endpoint for nothing. Lines that fail to parse (a torn append) are
 * skipped, so the worst a crash costs is embedding those sections again.
 */
export class VectorCache {
  private constructor(
    private readonly file: string,
    private readonly vectors: Map<string, Float32Array>,
    private size: number,
  ) {}

  /** The folder every model's cache file lives in. */
  static dirOf(dataDir: string): string {
    return join(dataDir, 'assistant', 'embeddings');
  }

  /** The cache file of `model` (named by a hash: model names may hold any character). */
  static fileOf(dataDir: string, model: string): string {
    return join(VectorCache.dirOf(dataDir), `${createHash('sha256').update(model).digest('hex').slice(0, 16)}.jsonl`);
  }

  /** Opens (and reads) the cache of `model` under `dataDir`. */
  static async open(dataDir: string, model: string): Promise<VectorCache> {
    await mkdir(VectorCache.dirOf(dataDir), { recursive: true });
    const file = VectorCache.fileOf(dataDir, model);
    const vectors = new Map<string, Float32Array>();
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      try {
        const { h, v } = JSON.parse(line) as { h: string; v: string };
        const bytes = Buffer.from(v, 'base64');
        vectors.set(h, new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4).slice());
      } catch {
        // an empty or torn line
      }
    }
    return new VectorCache(file, vectors, Buffer.byteLength(text));
  }

  /** Bytes of the file as this cache read and appended it (pruning compares it with its bound). */
  get bytes(): number {
    return this.size;
  }

  /** The hash a text is cached under. */
  static key(text: string): string {
    return createHash('sha256').update(text).digest('base64url');
  }

  /** The cached vector of hash `key`, if any. */
  get(key: string): Float32Array | undefined {
    return this.vectors.get(key);
  }

  /** Keeps `vectors` (by hash) in memory and appends them to the file. */
  async add(entries: [string, Float32Array][]): Promise<void> {
    let lines = '';
    for (const [h, v] of entries) {
      this.vectors.set(h, v);
      lines += `${JSON.stringify({ h, v: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') })}\n`;
    }
    if (!lines) return;
    await appendFile(this.file, lines);
    this.size += Buffer.byteLength(lines);
  }
}
