import { appendFileSync, mkdirSync, readFileSync, statSync, renameSync } from 'node:fs';
import path from 'node:path';

/** One highlighted token: plain text, or text with a token-kind code (see `tokenKinds`). */
export type CodeToken = string | [string, number];
/** A highlighted block: one token list per line. */
export type TokenLines = CodeToken[][];

/** Memory entries kept at most; beyond this the oldest are dropped (a Map keeps insertion order). */
const MAX_MEMORY_ENTRIES = 50_000;
/** An append log larger than this is set aside and started afresh, so it can't grow forever. */
const MAX_LOG_BYTES = 64 * 1024 * 1024;
/** Queued entries written at once at most; more than this are flushed straight away. */
const FLUSH_EVERY = 256;

function isTokenLines(value: unknown): value is TokenLines {
  return (
    Array.isArray(value) &&
    value.every(
      (line) =>
        Array.isArray(line) &&
        line.every(
          (t) => typeof t === 'string' || (Array.isArray(t) && t.length === 2 && typeof t[0] === 'string' && typeof t[1] === 'number'),
        ),
    )
  );
}

/** A log line: `{"k":<key>,"t":<tokens>}`, which is also valid JSON on its own. */
function logLine(key: string, json: string): string {
  return `{"k":${JSON.stringify(key)},"t":${json}}`;
}

/** The key and tokens' JSON of a log line, or null when the line is not one `logLine` writes. */
function splitLogLine(line: string): { key: string; json: string } | null {
  if (!line.startsWith('{"k":"') || !line.endsWith('}')) return null;
  const keyEnd = line.indexOf('"', 6);
  if (keyEnd < 0 || !line.startsWith('","t":', keyEnd)) return null;
  return { key: line.slice(6, keyEnd), json: line.slice(keyEnd + 6, -1) };
}

/** Tokens from their JSON, or undefined when it is corrupt or not tokens. */
function parseTokens(json: string): TokenLines | undefined {
  try {
    const tokens: unknown = JSON.parse(json);
    return isTokenLines(tokens) ? tokens : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Highlighted tokens by content hash, in memory and (optionally) in an append-only JSON-lines
 * log under `cacheDir`, so a re-export of unchanged pages skips tokenizing. A torn or corrupt
 * line (crash mid-write, two writers) is skipped on load; nothing in the log can make a build fail.
 */
export class TokenCache {
  /**
   * Tokens as JSON text: parsed token arrays take several times the heap of their text, and
   * parsing an entry back when it is used costs far less than tokenizing its code again.
   */
  private readonly memory = new Map<string, string>();
  private readonly logFile: string | undefined;
  private diskWritable: boolean;
  /** True when the log ends mid-line (a torn write): the next append must start a fresh line. */
  private needsNewline = false;
  private pending: string[] = [];
  private flushScheduled = false;
  hits = 0;
  misses = 0;
  loadedFromDisk = 0;

  constructor(cacheDir?: string) {
    this.logFile = cacheDir ? path.join(cacheDir, 'highlight-tokens.jsonl') : undefined;
    this.diskWritable = Boolean(cacheDir);
    if (cacheDir) this.load(cacheDir);
  }

  private load(cacheDir: string): void {
    const file = this.logFile as string;
    try {
      mkdirSync(cacheDir, { recursive: true });
      if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) renameSync(file, `${file}.old`);
    } catch {
      this.diskWritable = false;
      return;
    }
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return; // no log yet
    }
    this.needsNewline = text.length > 0 && !text.endsWith('\n');
    // Lines are kept as read and only parsed (and checked) when asked for: a warm start reads
    // the whole log, but a render only uses the entries of its own pages.
    for (const line of text.split('\n')) {
      const entry = splitLogLine(line);
      if (!entry) continue; // a torn line from an interrupted write: the entry is simply recomputed
      this.remember(entry.key, entry.json);
      this.loadedFromDisk++;
    }
  }

  private remember(key: string, tokens: string): void {
    if (this.memory.size >= MAX_MEMORY_ENTRIES) {
      const oldest = this.memory.keys().next().value;
      if (oldest !== undefined) this.memory.delete(oldest);
    }
    this.memory.set(key, tokens);
  }

  /** The cached tokens for a key, counting the hit or miss. */
  get(key: string): TokenLines | undefined {
    const found = this.memory.get(key);
    const tokens = found === undefined ? undefined : parseTokens(found);
    if (tokens) this.hits++;
    else {
      // Corrupt on disk: forget it, so the tokens computed next replace it.
      if (found !== undefined) this.memory.delete(key);
      this.misses++;
    }
    return tokens;
  }

  /** True when tokens for the key are at hand (not counted as a hit or miss). */
  has(key: string): boolean {
    return this.memory.has(key);
  }

  /** Stores tokens in memory and queues them for the log; writes are batched (see `flush`). */
  set(key: string, tokens: TokenLines): void {
    this.store(key, JSON.stringify(tokens));
  }

  /** Stores tokens given as their JSON (tokenized elsewhere), unless the key has some already. */
  offer(key: string, json: string): void {
    if (!this.memory.has(key)) this.store(key, json);
  }

  private store(key: string, json: string): void {
    this.remember(key, json);
    if (!this.diskWritable || !this.logFile) return;
    this.pending.push(logLine(key, json));
    // Rendering a page is synchronous: flushing on the next turn of the event loop batches
    // one write per page instead of one per block, without needing the caller to flush.
    if (this.pending.length >= FLUSH_EVERY) this.flush();
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Appends queued entries to the log in one write. */
  flush(): void {
    this.flushScheduled = false;
    if (this.pending.length === 0 || !this.logFile) return;
    const lines = this.pending.join('\n');
    this.pending = [];
    try {
      appendFileSync(this.logFile, `${this.needsNewline ? '\n' : ''}${lines}\n`);
      this.needsNewline = false;
    } catch {
      // A read-only or full disk only costs speed on the next run.
      this.diskWritable = false;
    }
  }
}
