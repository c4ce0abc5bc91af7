/** Where a piece of feedback came from (SPEC section 6). */
export const FEEDBACK_SOURCES = ['contextual', 'code_snippet', 'thumbs_only', 'agent'] as const;
/** One of FEEDBACK_SOURCES. */
export type FeedbackSource = (typeof FEEDBACK_SOURCES)[number];

/** Triage states; new entries start `pending`. */
export const FEEDBACK_STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'] as const;
/** One of FEEDBACK_STATUSES. */
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

/** What a reader (or agent) submitted, after validation. */
export interface FeedbackSubmission {
  source: FeedbackSource;
  path: string;
  helpful?: boolean;
  comment?: string;
  contact?: string;
  code?: string;
  filename?: string;
  lang?: string;
  /** The site the feedback is about (its domain), set by the server from the request's Host, never by the client. */
  domain?: string;
}

/** A stored entry: the submission plus identity, time and its current triage status. */
export interface FeedbackEntry extends FeedbackSubmission {
  id: string;
  /** ISO 8601 UTC with milliseconds. */
  createdAt: string;
  status: FeedbackStatus;
}

/** Filters shared by listing and per-page counts. */
export interface FeedbackFilter {
  fromMs?: number;
  toMs?: number;
  source?: FeedbackSource;
  statuses?: readonly FeedbackStatus[];
  /** Only feedback posted on this site (its domain); undefined for every site. */
  domain?: string;
}

/** A keyset position: the last entry of the previous page. */
export interface FeedbackPageKey {
  createdAtMs: number;
  id: string;
}

/** Counts for one page of the docs site. */
export interface PageFeedbackCounts {
  path: string;
  thumbsUp: number;
  thumbsDown: number;
  code: number;
  total: number;
}

/** Feedback entries of one UTC day, per source. */
export type DayFeedbackCounts = { date: string; total: number } & Record<FeedbackSource, number>;
