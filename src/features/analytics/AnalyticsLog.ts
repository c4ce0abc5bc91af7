// size: one append-only log: its open day, checkpoints, replay and retention share that day's state
import { mkdir, readdir, readFile, stat, truncate, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { DAY_MS } from '../../platform/Clock.js';
import { scanSegment } from '../../platform/store/scanSegment.js';
import { SegmentAppender } from '../../platform/store/SegmentAppender.js';
import { fsyncDirectory, writeFileDurably } from '../../platform/store/writeFileDurably.js';
import { eventLine, parseEventLine, type AnalyticsEvent } from './AnalyticsEvent.js';
import { DayRollup, type DayRollupJson } from './DayRollup.js';
import { TextInterner } from '../../platform/TextInterner.js';

/** One UTC day of one project: its events file, its counts, and what still waits to be written. */
interface Day {
  projectId: string;
  /** Days since the epoch (UTC). */
  day: number;
  rollup: DayRollup;
  segmentPath: string;
  rollupPath: string;
  appender: Promise<SegmentAppender> | null;
  /** Bytes of good events on disk when loaded (where appends continue). */
  loadedSize: number;
  pending: string[];
  /** The rollup file matches the events file: nothing to persist. */
  persisted: boolean;
  /**
   * Where the file will end once every counted event is written (NaN after a failed write:
   * the file no longer lines up with the counts, so the day is not checkpointed again).
   */
  countedBytes: number;
  /** `countedBytes` when the open day's rollup was last checkpointed. */
  checkpointBytes: number;
}

/** Figures from opening the log (startup logging and the benchmark). */
export interface AnalyticsLogStats {
  days: number;
  /** Days rebuilt from their events because no up-to-date rollup was stored. */
  scannedDays: number;
  scannedEvents: number;
  /** Open days restored from a checkpoint (only the events after it were scanned). */
  checkpointDays: number;
  loadMs: number;
}

const SEGMENT_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;
const PROJECT_DIR = /^[A-Za-z0-9_-]{1,64}$/;
/** Events held in memory waiting for the next flush; beyond this a burst is dropped, never queued without bound. */
const MAX_PENDING_EVENTS = 100_000;
/** How often the open day's counts are checkpointed: a restart after a crash scans at most this much of its events (30 s at the global budget of 60,000 a minute: about 1 s). */
const CHECKPOINT_MS = 30_000;

/**
 * Reading analytics on disk: one append-only JSON Lines file of events per project and UTC day
 * under `<dataDir>/analytics/`, and beside each closed day a rollup of its counts. Events are
 * counted in memory at once and appended in batches every `flushMs`, off the request path
 * (a page is never held up by the disk; a crash loses at most one batch). The open day's
 * counts (with its visitor sketches) are checkpointed beside its events every 30 seconds and at
 * shutdown, so startup reads rollups and scans only the events written after the last
 * checkpoint: its time does not grow with the day's traffic. Retention deletes whole days.
 */
export class AnalyticsLog {
  private readonly days = new Map<string, Map<number, Day>>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private checkpointing: Promise<void> = Promise.resolve();
  private pendingCount = 0;
  /** Events refused because the in-memory batch was full (a disk far slower than the traffic). */
  dropped = 0;
  /** Numbers of paths and queries, shared by every day (see TextInterner); renumbered when days close. */
  private interner = new TextInterner();

  private constructor(
    private readonly root: string,
    private readonly logger: Logger,
    readonly stats: AnalyticsLogStats,
  ) {}

  /** Opens the log under `dataDir`, loading rollups and scanning days that have none. */
  static async open(options: { dataDir: string; logger: Logger; today: number }): Promise<AnalyticsLog> {
    const started = performance.now();
    const root = join(options.dataDir, 'analytics');
    const log = new AnalyticsLog(root, options.logger, { days: 0, scannedDays: 0, scannedEvents: 0, checkpointDays: 0, loadMs: 0 });
    try {
      await mkdir(root, { recursive: true, mode: 0o700 });
    } catch (err) {
      // A full or read-only volume: serve without analytics rather than not at all (appends retry later).
      options.logger.warn({ err }, 'cannot create the analytics directory; nothing is counted until it can be');
      return log;
    }
    for (const projectId of (await readdir(root)).filter((n) => PROJECT_DIR.test(n)).sort()) {
      for (const file of (await readdir(join(root, projectId))).filter((n) => SEGMENT_FILE.test(n)).sort()) {
        const day = log.dayOf(projectId, Date.parse(`${SEGMENT_FILE.exec(file)![1]}T00:00:00Z`) / DAY_MS);
        await log.loadDay(day, options.today);
        log.stats.days++;
      }
    }
    log.stats.loadMs = Math.round(performance.now() - started);
    return log;
  }

  /** Counts `event` for `projectId` now and queues it for the next batch; false when it was dropped. */
  record(projectId: string, event: AnalyticsEvent): boolean {
    if (this.pendingCount >= MAX_PENDING_EVENTS || !PROJECT_DIR.test(projectId)) {
      this.dropped++;
      return false;
    }
    const day = this.dayOf(projectId, Math.floor(event.at / DAY_MS));
    day.rollup.add(event);
    const line = eventLine(event);
    day.pending.push(line);
    day.countedBytes += Buffer.byteLength(line);
    day.persisted = false;
    this.pendingCount++;
    return true;
  }

  /** Numbers of the paths and queries the kept days use (reports index their sums by them). */
  get texts(): TextInterner {
    return this.interner;
  }

  /** The rollups of `projectId` for days `fromDay` ≤ day < `toDay`, oldest first. */
  rollups(projectId: string, fromDay: number, toDay: number): { day: number; rollup: DayRollup }[] {
    const days = this.days.get(projectId);
    if (!days) return [];
    const out: { day: number; rollup: DayRollup }[] = [];
    for (const d of days.values()) if (d.day >= fromDay && d.day < toDay) out.push({ day: d.day, rollup: d.rollup });
    return out.sort((a, b) => a.day - b.day);
  }

  /** Appends every queued event (one write per day file) and resolves once they are on disk. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  /** Flushes every `flushMs` until `close`, and closes the previous days once `today()` moves on. */
  startFlushing(flushMs: number, today: () => number): void {
    let lastDay = today();
    let ticks = 0;
    const checkpointTicks = Math.max(1, Math.round(CHECKPOINT_MS / flushMs));
    this.timer ??= setInterval(() => {
      const now = today();
      ticks = (ticks + 1) % checkpointTicks;
      const work = now !== lastDay ? this.closeDaysBefore(now) : ticks === 0 ? this.checkpoint(now) : this.flush();
      lastDay = now;
      work.catch((err) => this.logger.warn({ err }, 'could not write analytics'));
    }, flushMs);
    this.timer.unref();
  }

  /**
   * Closes the days before `today`: their events are flushed, their rollup is written beside
   * them (so the next start reads counts instead of events) and their visitor hashes are dropped.
   */
  async closeDaysBefore(today: number): Promise<void> {
    await this.flush();
    let closed = false;
    for (const days of this.days.values()) {
      for (const day of days.values()) {
        if (day.day >= today) continue;
        if (day.rollup.isOpen) closed = true;
        day.rollup.close();
        if (!day.persisted && day.pending.length === 0) {
          const size = day.appender ? (await day.appender).size : day.loadedSize;
          await writeFileDurably(day.rollupPath, JSON.stringify(day.rollup.toJSON(size)));
          day.persisted = true;
        }
      }
    }
    // Closing folded away queries and pages: forget the texts no kept day uses any more.
    if (closed) this.renumberTexts();
  }

  /**
   * Writes the counts of the days from `today` on (the open ones) beside their events, with
   * the offset they reach, so the next start reads them and scans only what came after.
   */
  checkpoint(today: number): Promise<void> {
    // One at a time: the timer's and the one at shutdown must not write the same file at once.
    const run = this.checkpointing.then(() => this.writeCheckpoints(today));
    this.checkpointing = run.catch(() => undefined);
    return run;
  }

  private async writeCheckpoints(today: number): Promise<void> {
    await this.flush();
    for (const days of this.days.values()) {
      for (const day of days.values()) {
        if (day.day < today || !day.rollup.isOpen || Number.isNaN(day.countedBytes) || day.countedBytes === day.checkpointBytes) continue;
        // Taken synchronously: the counts and the offset describe the same events.
        const bytes = day.countedBytes;
        const text = JSON.stringify(day.rollup.toJSON(bytes));
        await writeFileDurably(day.rollupPath, text);
        day.checkpointBytes = bytes;
      }
    }
  }

  /** Deletes every day before `cutoffDay` (events and rollup); returns the event files removed. */
  async dropDaysBefore(cutoffDay: number): Promise<string[]> {
    const removed: string[] = [];
    for (const [projectId, days] of this.days) {
      for (const day of [...days.values()]) {
        if (day.day >= cutoffDay) continue;
        days.delete(day.day);
        this.pendingCount -= day.pending.length;
        day.pending = [];
        if (day.appender) await (await day.appender.catch(() => null))?.close();
        for (const path of [day.segmentPath, day.rollupPath]) {
          await unlink(path).catch((err: NodeJS.ErrnoException) => {
            if (err.code !== 'ENOENT') throw err;
          });
        }
        removed.push(day.segmentPath);
      }
      if (removed.length > 0) await fsyncDirectory(join(this.root, projectId));
    }
    if (removed.length > 0) this.renumberTexts();
    return removed;
  }

  /** Writes what is queued and closes the files. */
  async close(today?: number): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
    if (today !== undefined)
      await this.checkpoint(today).catch((err) => this.logger.warn({ err }, 'could not checkpoint analytics; the next start scans today'));
    for (const days of this.days.values())
      for (const day of days.values()) if (day.appender) await (await day.appender.catch(() => null))?.close();
  }

  private async writePending(): Promise<void> {
    const writes: Promise<unknown>[] = [];
    for (const days of this.days.values()) {
      for (const day of days.values()) {
        if (day.pending.length === 0) continue;
        const data = Buffer.from(day.pending.join(''));
        const count = day.pending.length;
        day.pending = [];
        this.pendingCount -= count;
        writes.push(
          this.appenderOf(day)
            .then((appender) => appender.append(data))
            .catch((err) => {
              // Counted in memory already; only a restart would lose them. Pages were served regardless.
              day.countedBytes = Number.NaN;
              this.logger.warn({ err, file: day.segmentPath, events: count }, 'could not store analytics events');
            }),
        );
      }
    }
    await Promise.all(writes);
  }

  private dayOf(projectId: string, dayNumber: number): Day {
    let days = this.days.get(projectId);
    if (!days) this.days.set(projectId, (days = new Map()));
    let day = days.get(dayNumber);
    if (!day) {
      const name = new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
      const dir = join(this.root, projectId);
      day = {
        projectId,
        day: dayNumber,
        rollup: new DayRollup(this.interner),
        segmentPath: join(dir, `${name}.jsonl`),
        rollupPath: join(dir, `${name}.rollup.json`),
        appender: null,
        loadedSize: 0,
        pending: [],
        persisted: false,
        countedBytes: 0,
        checkpointBytes: -1,
      };
      days.set(dayNumber, day);
    }
    return day;
  }

  private async loadDay(day: Day, today: number): Promise<void> {
    const size = (await stat(day.segmentPath)).size;
    const stored = await readRollup(day.rollupPath);
    const checkpoint = stored?.sketches !== undefined;
    if (stored && !checkpoint && stored.rawBytes === size && day.day < today) {
      day.rollup = DayRollup.fromJSON(stored, this.interner);
      day.loadedSize = size;
      day.countedBytes = size;
      day.persisted = true;
      return;
    }
    // An open day's checkpoint: its counts, then only the events written after it.
    let from = 0;
    if (stored && checkpoint && stored.rawBytes <= size) {
      try {
        day.rollup = DayRollup.fromJSON(stored, this.interner);
        from = stored.rawBytes;
        day.checkpointBytes = from;
        this.stats.checkpointDays++;
      } catch {
        day.rollup = new DayRollup(this.interner);
      }
    }
    let events = 0;
    const scan = await scanSegment(
      day.segmentPath,
      (text) => {
        try {
          day.rollup.add(parseEventLine(text));
          events++;
        } catch {
          // A damaged line is one lost event, not a reason to refuse to start.
        }
      },
      { from },
    );
    // A torn tail (a crash mid-append) is cut off so appends continue on a clean line.
    day.loadedSize = scan.completeBytes;
    day.countedBytes = scan.completeBytes;
    if (scan.tornBytes > 0)
      this.logger.warn({ file: day.segmentPath, droppedBytes: scan.tornBytes }, 'dropped a torn analytics event at the end of a day file');
    if (from === 0) this.stats.scannedDays++;
    this.stats.scannedEvents += events;
  }

  private renumberTexts(): void {
    const texts = new TextInterner();
    for (const days of this.days.values()) for (const day of days.values()) day.rollup.reintern(texts);
    this.interner = texts;
  }

  private appenderOf(day: Day): Promise<SegmentAppender> {
    day.appender ??= (async () => {
      const dir = join(this.root, day.projectId);
      const isNew = day.loadedSize === 0;
      if (isNew) {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        await fsyncDirectory(this.root);
      }
      // SegmentAppender appends at the end: a torn tail found at load must be cut first.
      if (!isNew) await truncate(day.segmentPath, day.loadedSize);
      const appender = await SegmentAppender.open(day.segmentPath, day.loadedSize, 0);
      if (isNew) await fsyncDirectory(dir);
      return appender;
    })().catch((err) => {
      day.appender = null;
      throw err;
    });
    return day.appender;
  }
}

async function readRollup(path: string): Promise<DayRollupJson | null> {
  try {
    const json = JSON.parse(await readFile(path, 'utf8')) as DayRollupJson;
    return typeof json.rawBytes === 'number' && Array.isArray(json.views) && Array.isArray(json.visitors) && Array.isArray(json.searches)
      ? json
      : null;
  } catch {
    return null;
  }
}
