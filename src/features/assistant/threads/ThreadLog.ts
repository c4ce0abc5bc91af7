import { mkdir, readdir, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { SegmentAppender } from '../../../platform/store/SegmentAppender.js';
import { scanSegment } from '../../../platform/store/scanSegment.js';
import { type AssistantTurn, assistantTurnSchema } from './AssistantTurn.js';

const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;

/**
 * The assistant's turns on an append-only log: one JSON Lines file per UTC day under
 * `<dataDir>/assistant-threads/`, written durably (SegmentAppender), read back whole at start.
 * Retention drops whole day files, as the analytics log does; a torn last line (a crash
 * mid-write) is cut off at open. Kept in memory in time order for the analytics listings;
 * the global message rate and the retention bound how much that is.
 */
export class ThreadLog {
  private readonly turns: AssistantTurn[] = [];
  private readonly byThread = new Map<string, AssistantTurn[]>();
  private appender: { day: string; segment: SegmentAppender } | undefined;

  private constructor(
    private readonly dir: string,
    private readonly logger: Logger,
  ) {}

  /** Opens (creating) the log in `dataDir` and loads every day file still on disk. */
  static async open(options: { dataDir: string; logger: Logger }): Promise<ThreadLog> {
    const log = new ThreadLog(join(options.dataDir, 'assistant-threads'), options.logger);
    await mkdir(log.dir, { recursive: true, mode: 0o700 });
    for (const name of (await readdir(log.dir)).filter((n) => DAY_FILE.test(n)).sort()) await log.load(name);
    return log;
  }

  /** Stores one turn durably; resolves once it is on disk. */
  async append(turn: AssistantTurn): Promise<void> {
    const day = turn.at.slice(0, 10);
    if (this.appender?.day !== day) {
      await this.appender?.segment.close();
      const path = join(this.dir, `${day}.jsonl`);
      this.appender = { day, segment: await SegmentAppender.open(path, await sizeOf(path), 0) };
    }
    await this.appender.segment.append(Buffer.from(`${JSON.stringify(turn)}\n`));
    this.remember(turn);
  }

  /** Every turn in time order (oldest first). */
  all(): readonly AssistantTurn[] {
    return this.turns;
  }

  /** The turns of one thread, oldest first, or undefined. */
  thread(threadId: string): readonly AssistantTurn[] | undefined {
    return this.byThread.get(threadId);
  }

  /** Deletes the day files before `cutoffDay` (YYYY-MM-DD) and forgets their turns. */
  async dropDaysBefore(cutoffDay: string): Promise<string[]> {
    const gone = (await readdir(this.dir)).filter((n) => (DAY_FILE.exec(n)?.[1] ?? '9999') < cutoffDay);
    for (const name of gone) await rm(join(this.dir, name), { force: true });
    const keepFrom = this.turns.findIndex((t) => t.at.slice(0, 10) >= cutoffDay);
    const dropped = this.turns.splice(0, keepFrom < 0 ? this.turns.length : keepFrom);
    for (const turn of dropped) {
      const rest = this.byThread.get(turn.threadId)?.filter((t) => t !== turn) ?? [];
      if (rest.length > 0) this.byThread.set(turn.threadId, rest);
      else this.byThread.delete(turn.threadId);
    }
    return gone;
  }

  async close(): Promise<void> {
    await this.appender?.segment.close();
    this.appender = undefined;
  }

  private async load(name: string): Promise<void> {
    const path = join(this.dir, name);
    let bad = 0;
    const scan = await scanSegment(path, (text) => {
      const parsed = assistantTurnSchema.safeParse(safeJson(text));
      if (parsed.success) this.remember(parsed.data);
      else bad++;
    });
    if (scan.tornBytes > 0) await truncate(path, scan.completeBytes);
    if (bad > 0 || scan.tornBytes > 0)
      this.logger.warn({ file: name, bad, tornBytes: scan.tornBytes }, 'assistant thread log: skipped damaged lines');
  }

  private remember(turn: AssistantTurn): void {
    // Appends arrive in time order; a clock set back is rare, so it pays one sorted insert.
    let at = this.turns.length;
    while (at > 0 && this.turns[at - 1]!.at > turn.at) at--;
    this.turns.splice(at, 0, turn);
    const thread = this.byThread.get(turn.threadId);
    if (thread) thread.push(turn);
    else this.byThread.set(turn.threadId, [turn]);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function sizeOf(path: string): Promise<number> {
  return stat(path).then(
    (s) => s.size,
    () => 0,
  );
}
