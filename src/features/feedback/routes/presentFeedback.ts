import { z } from 'zod';
import { FEEDBACK_SOURCES, FEEDBACK_STATUSES, type FeedbackEntry } from '../FeedbackEntry.js';

/** The public shape of one entry (OpenAPI and tests). */
export const feedbackEntrySchema = z.object({
  id: z.string(),
  path: z.string(),
  comment: z.string().nullable(),
  createdAt: z.iso.datetime(),
  source: z.enum(FEEDBACK_SOURCES),
  status: z.enum(FEEDBACK_STATUSES),
  domain: z.string().nullable().describe('The site the feedback was posted on (null for entries recorded before sites were told apart)'),
  helpful: z.boolean().nullable().optional().describe('contextual and thumbs_only; agent when an "Ask AI" answer was rated'),
  contact: z.string().nullable().optional().describe('contextual only'),
  code: z.string().optional().describe('code_snippet only'),
  filename: z.string().nullable().optional().describe('code_snippet only'),
  lang: z.string().nullable().optional().describe('code_snippet only'),
});

/** One page of the feedback list (the response of GET /v1/analytics/{projectId}/feedback). */
export const feedbackPageSchema = z.object({
  feedback: z.array(feedbackEntrySchema),
  nextCursor: z.string().nullable(),
  hasMore: z.boolean(),
});

/** An entry and a page as clients receive them (the CLI and tests read these). */
export type FeedbackEntryBody = z.infer<typeof feedbackEntrySchema>;
export type FeedbackPageBody = z.infer<typeof feedbackPageSchema>;

/** Whitelists the fields of an entry for the API; source-specific fields appear only for their source
 * (a thumbs_only rating keeps its `helpful`: it is the whole entry). */
export function presentFeedback(entry: FeedbackEntry): z.infer<typeof feedbackEntrySchema> {
  const out: z.infer<typeof feedbackEntrySchema> = {
    id: entry.id,
    path: entry.path,
    comment: entry.comment ?? null,
    createdAt: entry.createdAt,
    source: entry.source,
    status: entry.status,
    domain: entry.domain ?? null,
  };
  if (entry.source === 'contextual' || entry.source === 'thumbs_only') out.helpful = entry.helpful ?? null;
  // An "Ask AI" rating (source agent) carries helpful; other agent feedback has none and shows none.
  if (entry.source === 'agent' && entry.helpful !== undefined) out.helpful = entry.helpful;
  if (entry.source === 'contextual') out.contact = entry.contact ?? null;
  if (entry.source === 'code_snippet') {
    out.code = entry.code ?? '';
    out.filename = entry.filename ?? null;
    out.lang = entry.lang ?? null;
  }
  return out;
}
