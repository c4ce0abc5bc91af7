import { open } from 'node:fs/promises';
import { FEEDBACK_SOURCES, FEEDBACK_STATUSES, type FeedbackStatus } from '../FeedbackEntry.js';
import { StoreFileError } from '../../../platform/store/StoreFileError.js';
import type { FeedbackIndex } from './FeedbackIndex.js';
import { feedbackIdParts, parseFeedbackRecord } from './feedbackRecord.js';
import { scanSegment } from '../../../platform/store/scanSegment.js';

/** What loading one segment found. */
export interface LoadedSegment {
  entries: number;
  statusChanges: number;
  /** Length of the segment's good content (after any torn tail was cut off). */
  size: number;
  /** Bytes of a torn last record that were dropped, 0 normally. */
  droppedBytes: number;
}

/**
 * Streams one segment into `index` (rows pushed unsorted, tagged with `segment`) and applies
 * its status records. A torn last line — the tail of an append cut short by a crash — is
 * truncated away so later appends start on a clean line; a bad line anywhere else means the
 * file was damaged some other way, and loading stops with an error naming the file.
 */
// size: one pass over a segment file: parse, index and the torn-last-line repair share the read position
export async function loadSegment(path: string, segment: number, index: FeedbackIndex): Promise<LoadedSegment> {
  const firstRow = index.size;
  const statuses = new Map<string, FeedbackStatus>();
  let statusChanges = 0;
  let badLine: { offset: number; reason: string } | null = null;

  const scan = await scanSegment(path, (text, offset, length) => {
    if (badLine) throw new StoreFileError(path, `unreadable feedback record at byte ${badLine.offset} (${badLine.reason})`);
    let record;
    try {
      record = parseFeedbackRecord(text);
    } catch (err) {
      badLine = { offset, reason: (err as Error).message };
      return;
    }
    if (record.type === 'status') {
      statuses.set(record.id, record.status);
      statusChanges += 1;
      return;
    }
    const helpful = record.helpful === true ? 1 : record.helpful === false ? 0 : -1;
    index.push({
      createdAt: record.createdAtMs,
      idHi: record.idHi,
      idLo: record.idLo,
      segment,
      offset,
      length,
      source: FEEDBACK_SOURCES.indexOf(record.source),
      status: 0,
      helpful,
      path: index.pathId(record.path),
      site: index.siteId(record.domain),
    });
  });

  // Only the very last complete line may be bad: a crash can leave it, nothing else can.
  const lastBad = badLine as { offset: number; reason: string } | null;
  const size = lastBad ? lastBad.offset : scan.completeBytes;
  const droppedBytes = scan.completeBytes + scan.tornBytes - size;
  if (droppedBytes > 0) {
    const handle = await open(path, 'r+');
    try {
      await handle.truncate(size);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  if (statuses.size > 0) {
    // Matched on the id's low half, a number, then the high half: building the id text of
    // every row to look it up was a large share of startup.
    const byLowHalf = new Map<number, { idHi: number; status: number }[]>();
    for (const [id, status] of statuses) {
      const { idHi, idLo } = feedbackIdParts(id)!;
      const list = byLowHalf.get(idLo) ?? [];
      list.push({ idHi, status: FEEDBACK_STATUSES.indexOf(status) });
      byLowHalf.set(idLo, list);
    }
    index.applyStatuses(firstRow, (idHi, idLo) => byLowHalf.get(idLo)?.find((s) => s.idHi === idHi)?.status);
  }
  return { entries: index.size - firstRow, statusChanges, size, droppedBytes };
}
