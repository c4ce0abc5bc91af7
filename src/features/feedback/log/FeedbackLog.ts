// size: the log's segments, index and appenders are private state its methods keep in step
import { mkdir, open, readdir, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import {
  FEEDBACK_SOURCES,
  FEEDBACK_STATUSES,
  type FeedbackEntry,
  type FeedbackSource,
  type FeedbackFilter,
  type FeedbackPageKey,
  type DayFeedbackCounts,
  type FeedbackStatus,
  type FeedbackSubmission,
  type PageFeedbackCounts,
} from '../FeedbackEntry.js';
import { fsyncDirectory } from '../../../platform/store/writeFileDurably.js';
import { DAY_MS } from '../../../platform/Clock.js';
import { FeedbackIdSource } from './FeedbackIdSource.js';
import { FeedbackIndex, type IndexFilter, type IndexRow } from './FeedbackIndex.js';
import {
  entryRecord,
  feedbackIdFromParts,
  feedbackIdParts,
  parseFeedbackRecord,
  recordLine,
  statusRecordLine,
  toFeedbackEntry,
  type EntryRecord,
} from './feedbackRecord.js';
import { loadSegment } from './loadSegment.js';
import { readLines } from './readLines.js';
import { RecentRecords } from './RecentRecords.js';
import { SegmentAppender } from '../../../platform/store/SegmentAppender.js';

/** Figures from opening the log (startup logging and the benchmark). */
export interface FeedbackLogStats {
  entries: number;
  segments: number;
  loadMs: number;
  droppedBytes: number;
}

interface Segment {
  id: number;
  projectId: string;
  month: string;
  path: string;
  /** Good length found at load (0 for a new file). */
  loadedSize: number;
  appender: Promise<SegmentAppender> | null;
  /** Kept open for listing: an open and a close per request were two more trips through the thread pool. */
  reader: Promise<FileHandle> | null;
}

const SEGMENT_FILE = /^(\d{4}-\d{2})\.jsonl$/;
const PROJECT_DIR = /^[A-Za-z0-9_-]{1,64}$/;
/** Parsed entries kept for listing: a few pages each for a handful of dashboards, ~2 MB. */
const RECENT_RECORDS = 4096;

/**
 * Reader feedback on disk: append-only JSON Lines segments per project and month under
 * `<dataDir>/feedback/`, written with group commit, plus an in-memory index per project
 * rebuilt by streaming the segments at startup. Status changes are appended records, so no
 * segment is ever rewritten; retention deletes whole segments.
 */
export class FeedbackLog {
  private readonly segments: (Segment | null)[] = [];
  private readonly segmentByKey = new Map<string, Segment>();
  private readonly indexes = new Map<string, FeedbackIndex>();
  private readonly ids = new FeedbackIdSource();
  private readonly recent = new RecentRecords<EntryRecord>(RECENT_RECORDS);

  private constructor(
    private readonly root: string,
    private readonly groupCommitMs: number,
    private readonly logger: Logger,
    readonly stats: FeedbackLogStats,
  ) {}

  /** Opens the log under `dataDir`, loading every segment into the index. */
  static async open(options: { dataDir: string; groupCommitMs: number; logger: Logger }): Promise<FeedbackLog> {
    const started = performance.now();
    const root = join(options.dataDir, 'feedback');
    await mkdir(root, { recursive: true, mode: 0o700 });
    const log = new FeedbackLog(root, options.groupCommitMs, options.logger, { entries: 0, segments: 0, loadMs: 0, droppedBytes: 0 });
    for (const projectId of (await readdir(root)).filter((n) => PROJECT_DIR.test(n)).sort()) {
      const files = (await readdir(join(root, projectId))).filter((n) => SEGMENT_FILE.test(n)).sort();
      const index = log.indexFor(projectId);
      for (const file of files) {
        const segment = log.addSegment(projectId, SEGMENT_FILE.exec(file)![1]);
        const loaded = await loadSegment(segment.path, segment.id, index);
        segment.loadedSize = loaded.size;
        log.stats.entries += loaded.entries;
        log.stats.droppedBytes += loaded.droppedBytes;
        if (loaded.droppedBytes > 0) {
          options.logger.warn(
            { file: segment.path, droppedBytes: loaded.droppedBytes },
            'dropped a torn feedback record at the end of a segment (an append cut short by a crash; it was never acknowledged)',
          );
        }
      }
      index.sort();
    }
    log.stats.segments = log.segmentByKey.size;
    log.stats.loadMs = Math.round(performance.now() - started);
    return log;
  }

  /** Number of entries held for `projectId`. */
  count(projectId: string): number {
    return this.indexes.get(projectId)?.size ?? 0;
  }

  /** Stores a new entry; resolves once its line is durable on disk. */
  async append(projectId: string, submission: FeedbackSubmission, now: Date): Promise<FeedbackEntry> {
    const { id, idHi, idLo } = this.ids.take();
    const createdAt = now.toISOString();
    const record = entryRecord(id, createdAt, submission);
    const line = Buffer.from(recordLine(record));
    const segment = this.segmentFor(projectId, createdAt.slice(0, 7));
    const offset = await (await this.appenderOf(segment)).append(line);
    // The newest entries are what the first page of every listing shows: keep them at hand.
    this.recent.set(segment.id, offset, record);
    const index = this.indexFor(projectId);
    const helpful = submission.helpful === true ? 1 : submission.helpful === false ? 0 : -1;
    index.insert({
      createdAt: now.getTime(),
      idHi,
      idLo,
      segment: segment.id,
      offset,
      length: line.length,
      source: FEEDBACK_SOURCES.indexOf(submission.source),
      status: 0,
      helpful,
      path: index.pathId(submission.path),
      site: index.siteId(submission.domain),
    });
    return { id, createdAt, ...submission, status: 'pending' };
  }

  /** Records a status change; resolves with the updated entry once durable, or null if unknown. */
  async setStatus(projectId: string, id: string, status: FeedbackStatus, now: Date): Promise<FeedbackEntry | null> {
    const index = this.indexes.get(projectId);
    const parts = feedbackIdParts(id);
    if (!index || !parts) return null;
    const before = index.find(parts.idHi, parts.idLo);
    if (before < 0) return null;
    const segment = this.segments[index.rowAt(before).segment]!;
    await (await this.appenderOf(segment)).append(Buffer.from(statusRecordLine(id, status, now.toISOString())));
    // Rows may have moved while the append was in flight; look the entry up again.
    const at = index.find(parts.idHi, parts.idLo);
    if (at < 0) return null;
    index.setStatus(at, FEEDBACK_STATUSES.indexOf(status));
    return (await this.readRows([index.rowAt(at)]))[0];
  }

  /** One page of entries newest first, strictly after `after` in that order. */
  async list(
    projectId: string,
    filter: FeedbackFilter,
    after: FeedbackPageKey | null,
    limit: number,
  ): Promise<{ entries: FeedbackEntry[]; hasMore: boolean }> {
    const index = this.indexes.get(projectId);
    if (!index) return { entries: [], hasMore: false };
    const before = after ? { createdAt: after.createdAtMs, ...feedbackIdParts(after.id)! } : null;
    const rows = index.select(toIndexFilter(filter, index), before, limit + 1);
    const hasMore = rows.length > limit;
    return { entries: await this.readRows(rows.slice(0, limit)), hasMore };
  }

  /**
   * Ratings and code-snippet counts per page for the entries matching `filter`. Thumbs count
   * contextual ratings only, as the hosted schema defines them; `total` counts every entry.
   */
  countByPage(projectId: string, filter: FeedbackFilter): PageFeedbackCounts[] {
    const index = this.indexes.get(projectId);
    if (!index) return [];
    const counts = index.countByPath(toIndexFilter(filter, index), {
      rating: FEEDBACK_SOURCES.indexOf('contextual'),
      code: FEEDBACK_SOURCES.indexOf('code_snippet'),
    });
    const pages: PageFeedbackCounts[] = [];
    for (let p = 0; p < counts.total.length; p++) {
      if (counts.total[p] > 0)
        pages.push({
          path: index.pathOf(p),
          thumbsUp: counts.helpful[p],
          thumbsDown: counts.notHelpful[p],
          code: counts.code[p],
          total: counts.total[p],
        });
    }
    return pages.sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Entries matching `filter` per UTC day and source, oldest day first (days without any left out). */
  countByDay(projectId: string, filter: FeedbackFilter): DayFeedbackCounts[] {
    const index = this.indexes.get(projectId);
    if (!index) return [];
    return index.countByDay(toIndexFilter(filter, index), DAY_MS, FEEDBACK_SOURCES.length).map(({ day, bySource }) => {
      const counts = Object.fromEntries(FEEDBACK_SOURCES.map((source, i) => [source, bySource[i]])) as Record<FeedbackSource, number>;
      return { date: new Date(day * DAY_MS).toISOString().slice(0, 10), ...counts, total: bySource.reduce((a, b) => a + b, 0) };
    });
  }

  /** Deletes every segment whose month ended at or before `cutoff`; returns the files removed. */
  async dropSegmentsEndedBy(cutoff: Date): Promise<string[]> {
    const doomed = [...this.segmentByKey.values()].filter((s) => monthEnd(s.month) <= cutoff.getTime());
    const removed: string[] = [];
    for (const segment of doomed) {
      this.segmentByKey.delete(`${segment.projectId}/${segment.month}`);
      this.segments[segment.id] = null;
      this.recent.clear();
      this.indexes.get(segment.projectId)?.removeSegments(new Set([segment.id]));
      await closeSegment(segment);
      await unlink(segment.path).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      await fsyncDirectory(join(this.root, segment.projectId));
      removed.push(segment.path);
    }
    return removed;
  }

  /** Commits queued appends and closes the segment files. */
  async close(): Promise<void> {
    for (const segment of this.segmentByKey.values()) await closeSegment(segment);
  }

  /** The entries of `rows`, from recently read records where held, else from their segments. */
  private async readRows(rows: IndexRow[]): Promise<FeedbackEntry[]> {
    const out = new Array<FeedbackEntry>(rows.length);
    const bySegment = new Map<number, number[]>();
    rows.forEach((row, i) => {
      const held = this.recent.get(row.segment, row.offset);
      if (held) {
        out[i] = toFeedbackEntry(held, FEEDBACK_STATUSES[row.status]);
        return;
      }
      const positions = bySegment.get(row.segment);
      if (positions) positions.push(i);
      else bySegment.set(row.segment, [i]);
    });
    for (const [segmentId, positions] of bySegment) {
      const segment = this.segments[segmentId];
      if (!segment) throw new Error('feedback segment was removed while being read');
      const texts = await readLines(
        await this.readerOf(segment),
        segment.path,
        positions.map((i) => rows[i]),
      );
      positions.forEach((i, k) => {
        const record = parseFeedbackRecord(texts[k]) as EntryRecord;
        if (record.id !== feedbackIdFromParts(rows[i].idHi, rows[i].idLo))
          throw new Error(`feedback index out of step with ${segment.path}`);
        this.recent.set(segmentId, rows[i].offset, record);
        out[i] = toFeedbackEntry(record, FEEDBACK_STATUSES[rows[i].status]);
      });
    }
    return out;
  }

  private indexFor(projectId: string): FeedbackIndex {
    let index = this.indexes.get(projectId);
    if (!index) this.indexes.set(projectId, (index = new FeedbackIndex()));
    return index;
  }

  private addSegment(projectId: string, month: string): Segment {
    if (this.segments.length >= 0xffff) throw new Error('too many feedback segments');
    const segment: Segment = {
      id: this.segments.length,
      projectId,
      month,
      path: join(this.root, projectId, `${month}.jsonl`),
      loadedSize: 0,
      appender: null,
      reader: null,
    };
    this.segments.push(segment);
    this.segmentByKey.set(`${projectId}/${month}`, segment);
    return segment;
  }

  private segmentFor(projectId: string, month: string): Segment {
    if (!PROJECT_DIR.test(projectId)) throw new Error(`unsafe project id for a feedback directory: ${projectId}`);
    return this.segmentByKey.get(`${projectId}/${month}`) ?? this.addSegment(projectId, month);
  }

  /** Opens a segment for reading once (retried after a failure). */
  private readerOf(segment: Segment): Promise<FileHandle> {
    segment.reader ??= open(segment.path, 'r').catch((err) => {
      segment.reader = null;
      throw err;
    });
    return segment.reader;
  }

  /** Opens a segment for appending once; a new file's directory entry is made durable first. */
  private appenderOf(segment: Segment): Promise<SegmentAppender> {
    segment.appender ??= (async () => {
      const dir = join(this.root, segment.projectId);
      const isNew = segment.loadedSize === 0;
      if (isNew) {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        await fsyncDirectory(this.root);
      }
      const appender = await SegmentAppender.open(segment.path, segment.loadedSize, this.groupCommitMs);
      if (isNew) await fsyncDirectory(dir);
      return appender;
    })().catch((err) => {
      segment.appender = null; // let the next append retry (e.g. after disk space is freed)
      this.logger.error({ err, file: segment.path }, 'cannot open feedback segment');
      throw err;
    });
    return segment.appender;
  }
}

/** Commits a segment's queued appends and closes its files (reads in flight finish first). */
async function closeSegment(segment: Segment): Promise<void> {
  const { appender, reader } = segment;
  segment.reader = null;
  if (appender) await (await appender).close();
  if (reader) await (await reader.catch(() => null))?.close();
}

function toIndexFilter(filter: FeedbackFilter, index: FeedbackIndex): IndexFilter {
  return {
    site: filter.domain === undefined ? undefined : index.knownSiteId(filter.domain),
    fromMs: filter.fromMs,
    toMs: filter.toMs,
    source: filter.source === undefined ? undefined : FEEDBACK_SOURCES.indexOf(filter.source),
    statusMask: filter.statuses?.length ? filter.statuses.reduce((m, s) => m | (1 << FEEDBACK_STATUSES.indexOf(s)), 0) : undefined,
  };
}

/** Start of the month after `YYYY-MM`, in ms. */
function monthEnd(month: string): number {
  const [year, m] = month.split('-').map(Number);
  return Date.UTC(year, m, 1);
}
