import { z } from 'zod';
import { FEEDBACK_SOURCES, FEEDBACK_STATUSES, type FeedbackStatus } from '../FeedbackEntry.js';
import type { FeedbackCursor } from '../FeedbackCursor.js';
import { parseFeedbackDate } from '../parseFeedbackDate.js';

const dateBound = (description: string) =>
  z
    .string()
    .transform((text, ctx) => {
      const ms = parseFeedbackDate(text);
      if (ms === null) {
        ctx.addIssue({ code: 'custom', message: 'must be a real date as YYYY-MM-DD or ISO 8601 with Z or an offset (e.g. 2026-03-01T09:30:00+02:00)' });
        return z.NEVER;
      }
      return ms;
    })
    .optional()
    .describe(description);

const statusList = z
  .string()
  .transform((text, ctx) => {
    const parts = text.split(',');
    const unknown = parts.filter((p) => !FEEDBACK_STATUSES.includes(p as FeedbackStatus));
    if (unknown.length > 0) {
      ctx.addIssue({ code: 'custom', message: `unknown status ${unknown.map((u) => JSON.stringify(u)).join(', ')}; use a comma-separated subset of ${FEEDBACK_STATUSES.join(', ')}` });
      return z.NEVER;
    }
    return [...new Set(parts)] as FeedbackStatus[];
  })
  .optional()
  .describe(`Comma-separated subset of ${FEEDBACK_STATUSES.join(', ')}.`);

const limit = z
  .string()
  .transform((text, ctx) => {
    const n = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
    if (!(n >= 1 && n <= 100)) {
      ctx.addIssue({ code: 'custom', message: 'must be an integer from 1 to 100' });
      return z.NEVER;
    }
    return n;
  })
  .optional()
  .describe('Page size, 1–100 (default 50).');

const filterShape = {
  dateFrom: dateBound('Inclusive lower bound: YYYY-MM-DD (UTC midnight) or ISO 8601.'),
  dateTo: dateBound('Exclusive upper bound: YYYY-MM-DD (UTC midnight) or ISO 8601.'),
  source: z.enum(FEEDBACK_SOURCES).optional().describe('Only this source.'),
  status: statusList,
};

function checkRange(q: { dateFrom?: unknown; dateTo?: unknown }, ctx: z.RefinementCtx): void {
  if (typeof q.dateFrom === 'number' && typeof q.dateTo === 'number' && q.dateFrom > q.dateTo) {
    ctx.addIssue({ code: 'custom', path: ['dateTo'], message: 'must not be before dateFrom' });
  }
}

/** Query of the per-page counts: the listing's filters only. */
export const feedbackFilterQuerySchema = z.strictObject(filterShape).superRefine(checkRange, { when: () => true });

/** Query of the listing: filters, `limit` and a signed `cursor`, every problem reported at once. */
export function feedbackListQuerySchema(cursors: FeedbackCursor) {
  return z
    .strictObject({
      ...filterShape,
      limit,
      cursor: z
        .string()
        .transform((text, ctx) => {
          const decoded = cursors.decode(text);
          if (typeof decoded === 'string') {
            ctx.addIssue({ code: 'custom', message: decoded === 'tampered' ? 'was altered or is not from this appliance' : 'is malformed; pass nextCursor from the previous page unchanged' });
            return z.NEVER;
          }
          return decoded;
        })
        .optional()
        .describe('Opaque cursor: nextCursor of the previous page (same filters).'),
    })
    .superRefine(checkRange, { when: () => true });
}
