import {
  FEEDBACK_SOURCES,
  FEEDBACK_STATUSES,
  type FeedbackEntry,
  type FeedbackSource,
  type FeedbackStatus,
  type FeedbackSubmission,
} from '../FeedbackEntry.js';

/** A new entry as one JSON line of a segment. Its status starts `pending` and is not stored. */
export interface EntryRecord extends FeedbackSubmission {
  type: 'entry';
  id: string;
  createdAt: string;
}

/** A status change, appended to the segment that holds the entry; the last one wins. */
export interface StatusRecord {
  type: 'status';
  id: string;
  status: FeedbackStatus;
  at: string;
}

/** Any line of a segment. */
export type FeedbackRecord = EntryRecord | StatusRecord;

const SUBMISSION_FIELDS = ['source', 'path', 'helpful', 'comment', 'contact', 'code', 'filename', 'lang', 'domain'] as const;

/** A parsed line plus its id's halves and, for entries, its creation time in ms (parsed once, as loading needs them). */
export type ParsedFeedbackRecord = ((EntryRecord & { createdAtMs: number }) | StatusRecord) & { idHi: number; idLo: number };

/** Parses and checks one segment line; throws with a short reason when it isn't a record. */
export function parseFeedbackRecord(text: string): ParsedFeedbackRecord {
  const value = JSON.parse(text) as Record<string, unknown>;
  const idParts = value && typeof value === 'object' && typeof value.id === 'string' ? feedbackIdParts(value.id) : null;
  if (!idParts) throw new Error('record without a valid id');
  value.idHi = idParts.idHi;
  value.idLo = idParts.idLo;
  if (value.type === 'entry') {
    const createdAtMs = typeof value.createdAt === 'string' ? parseIsoMs(value.createdAt) : NaN;
    if (Number.isNaN(createdAtMs)) throw new Error('entry without a valid createdAt');
    value.createdAtMs = createdAtMs;
    if (!FEEDBACK_SOURCES.includes(value.source as FeedbackSource) || typeof value.path !== 'string')
      throw new Error('entry without source or path');
    return value as unknown as ParsedFeedbackRecord;
  }
  if (value.type === 'status') {
    if (!FEEDBACK_STATUSES.includes(value.status as FeedbackStatus) || typeof value.at !== 'string')
      throw new Error('status record without a valid status');
    return value as unknown as ParsedFeedbackRecord;
  }
  throw new Error('unknown record type');
}

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Epoch ms of an ISO timestamp; the fixed form this store writes is read digit by digit (far faster than Date.parse). */
function parseIsoMs(text: string): number {
  if (!ISO_MS.test(text)) return Date.parse(text);
  return Date.UTC(
    digits(text, 0, 4),
    digits(text, 5, 7) - 1,
    digits(text, 8, 10),
    digits(text, 11, 13),
    digits(text, 14, 16),
    digits(text, 17, 19),
    digits(text, 20, 23),
  );
}

function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
}

/** A new entry's record: only the fields that were given, in a fixed order (as its line reads back). */
export function entryRecord(id: string, createdAt: string, submission: FeedbackSubmission): EntryRecord {
  const record: Record<string, unknown> = { type: 'entry', id, createdAt };
  for (const field of SUBMISSION_FIELDS) if (submission[field] !== undefined) record[field] = submission[field];
  return record as unknown as EntryRecord;
}

/** A record as its segment line. */
export function recordLine(record: FeedbackRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/** The line for a new entry. */
export function entryRecordLine(id: string, createdAt: string, submission: FeedbackSubmission): string {
  return recordLine(entryRecord(id, createdAt, submission));
}

/** The line recording a status change. */
export function statusRecordLine(id: string, status: FeedbackStatus, at: string): string {
  return recordLine({ type: 'status', id, status, at });
}

/** A stored entry line plus its current status → the domain entry. */
export function toFeedbackEntry(record: EntryRecord, status: FeedbackStatus): FeedbackEntry {
  const entry: FeedbackEntry = { id: record.id, createdAt: record.createdAt, source: record.source, path: record.path, status };
  for (const field of SUBMISSION_FIELDS)
    if (field !== 'source' && field !== 'path' && record[field] !== undefined) Object.assign(entry, { [field]: record[field] });
  return entry;
}

/** `fb_` + 16 hex → its two 32-bit halves (they sort like the text); null for anything else. */
export function feedbackIdParts(id: string): { idHi: number; idLo: number } | null {
  if (id.length !== 19 || !id.startsWith('fb_')) return null;
  const idHi = hexHalf(id, 3);
  const idLo = hexHalf(id, 11);
  return idHi < 0 || idLo < 0 ? null : { idHi, idLo };
}

/**
 * The 8 lowercase hex digits of `text` from `from` as a number, or -1 if any isn't one. Read
 * digit by digit: a regular expression, two slices and two parseInt per id were a visible
 * share of startup, which does this for every entry.
 */
function hexHalf(text: string, from: number): number {
  let value = 0;
  for (let i = from; i < from + 8; i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** The inverse of feedbackIdParts. */
export function feedbackIdFromParts(idHi: number, idLo: number): string {
  return `fb_${idHi.toString(16).padStart(8, '0')}${idLo.toString(16).padStart(8, '0')}`;
}
