import { z } from 'zod';
import { FEEDBACK_SOURCES, FEEDBACK_STATUSES, type FeedbackStatus } from '../FeedbackEntry.js';
import type { FeedbackCursor } from '../FeedbackCursor.js';
import { checkDateRange, dateBoundParam, limitParam } from '../../../http/analyticsQueryParams.js';

const statusList = z
  .string()
  .transform((text, ctx) => {
    const parts = text.split(',');
    const unknown = parts.filter((p) => !FEEDBACK_STATUSES.includes(p as FeedbackStatus));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown status ${unknown.map((u) => JSON.stringify(u)).join(', ')}; use a comma-separated subset of ${FEEDBACK_STATUSES.join(', ')}`,
      });
      return z.NEVER;
    }
    return [...new Set(parts)] as FeedbackStatus[];
  })
  .optional()
  .describe(`Comma-separated subset of ${FEEDBACK_STATUSES.join(', ')}.`);

const filterShape = {
  dateFrom: dateBoundParam('Inclusive lower bound: YYYY-MM-DD (UTC midnight) or ISO 8601.'),
  dateTo: dateBoundParam('Exclusive upper bound: YYYY-MM-DD (UTC midnight) or ISO 8601.'),
  source: z.enum(FEEDBACK_SOURCES).optional().describe('Only this source.'),
  status: statusList,
  domain: z.string().min(1).max(253).optional().describe('Only feedback posted on this site (domain); default: every site of the project.'),
};

/** Query of the per-day counts: the listing's filters only. */
export const feedbackFilterQuerySchema = z.strictObject(filterShape).superRefine(checkDateRange, { when: () => true });

/** Query of the per-page counts: the listing's filters and how many pages (default 10). */
export const feedbackByPageQuerySchema = z
  .strictObject({ ...filterShape, limit: limitParam(10, 100) })
  .superRefine(checkDateRange, { when: () => true });

/** Query of the listing: filters, `limit` and a signed `cursor`, every problem reported at once. */
export function feedbackListQuerySchema(cursors: FeedbackCursor) {
  return z
    .strictObject({
      ...filterShape,
      limit: limitParam(50, 100),
      cursor: z
        .string()
        .transform((text, ctx) => {
          const decoded = cursors.decode(text);
          if (typeof decoded === 'string') {
            ctx.addIssue({
              code: 'custom',
              message:
                decoded === 'tampered'
                  ? 'was altered or is not from this appliance'
                  : 'is malformed; pass nextCursor from the previous page unchanged',
            });
            return z.NEVER;
          }
          return decoded;
        })
        .optional()
        .describe('Opaque cursor: nextCursor of the previous page (same filters).'),
    })
    .superRefine(checkDateRange, { when: () => true });
}
