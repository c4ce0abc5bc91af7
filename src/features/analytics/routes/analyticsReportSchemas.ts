import { z } from 'zod';
import { checkDateRange, dateBoundParam, limitParam } from '../../../http/analyticsQueryParams.js';

const offset = z
  .string()
  .regex(/^\d{1,9}$/, 'must be a whole number of rows to skip')
  .transform(Number)
  .optional()
  .meta({ type: 'integer', minimum: 0, maximum: 999_999_999, default: 0, description: 'Rows to skip (default 0).' });

const range = {
  dateFrom: dateBoundParam(
    'Inclusive lower bound: YYYY-MM-DD or ISO 8601. Analytics are kept per UTC day: a bound inside a day takes in that whole day.',
  ),
  dateTo: dateBoundParam('Exclusive upper bound: YYYY-MM-DD or ISO 8601 (rounded up to the next UTC midnight).'),
  domain: z.string().min(1).max(253).optional().describe('Only this site (domain); default: every site of the project.'),
};

const groupBy = z
  .enum(['day'])
  .optional()
  .describe('`day` adds `days: [{ date, human, ai, total }]`, one entry per day with data, oldest first.');

/** Query of /views. */
export const viewsQuerySchema = z
  .strictObject({
    ...range,
    version: z.string().min(1).max(200).optional().describe('Only this deployed version.'),
    limit: limitParam(50, 1000),
    offset,
    groupBy,
  })
  .superRefine(checkDateRange, { when: () => true });

/** Query of /visitors. */
export const visitorsQuerySchema = z
  .strictObject({ ...range, limit: limitParam(50, 1000), offset, groupBy })
  .superRefine(checkDateRange, { when: () => true });

/** Query of /searches; `cursor` is the previous page's nextCursor. */
export const searchesQuerySchema = z
  .strictObject({
    ...range,
    limit: limitParam(50, 1000),
    cursor: z
      .string()
      .regex(/^o[0-9]{1,9}$/, 'is malformed; pass nextCursor from the previous page unchanged')
      .transform((text) => Number(text.slice(1)))
      .optional()
      .describe('Opaque cursor: nextCursor of the previous page (same filters).'),
    noResults: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional()
      .describe('`true`: only queries whose last search showed no results.'),
  })
  .superRefine(checkDateRange, { when: () => true });

const kinds = { human: z.number(), ai: z.number(), total: z.number() };
const days = z.array(z.object({ date: z.string(), ...kinds })).optional();

/** Body of /views. */
export const viewsBodySchema = z.object({
  totals: z.object(kinds),
  views: z.array(z.object({ path: z.string(), ...kinds })),
  hasMore: z.boolean(),
  days,
});
/** Body of /visitors. */
export const visitorsBodySchema = z.object({
  totals: z.object(kinds),
  visitors: z.array(z.object({ path: z.string(), ...kinds })),
  hasMore: z.boolean(),
  days,
});
/** Body of /searches. */
export const searchesBodySchema = z.object({
  searches: z.array(
    z.object({
      searchQuery: z.string(),
      hits: z.number(),
      ctr: z.number(),
      topClickedPage: z.string().nullable(),
      lastSearchedAt: z.iso.datetime(),
      results: z.number(),
    }),
  ),
  totalSearches: z.number(),
  nextCursor: z.string().nullable(),
});
