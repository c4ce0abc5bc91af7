import { z } from 'zod';
import { parseDateBound } from '../platform/parseDateBound.js';

/** A `dateFrom`/`dateTo` query parameter: YYYY-MM-DD or ISO 8601, parsed to epoch ms. */
export function dateBoundParam(description: string) {
  return z
    .string()
    .transform((text, ctx) => {
      const ms = parseDateBound(text);
      if (ms === null) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a real date as YYYY-MM-DD or ISO 8601 (e.g. 2026-03-01T09:30:00+02:00; without an offset, UTC)',
        });
        return z.NEVER;
      }
      return ms;
    })
    .optional()
    .describe(description);
}

/**
 * A `limit` query parameter: a whole number from 1 to `max`, `fallback` when absent. The hosted
 * schema types it as a number, so `10.0` is ten; `10.5` is refused.
 */
export function limitParam(fallback: number, max: number) {
  return (
    z
      .string()
      .transform((text, ctx) => {
        const n = /^\d{1,7}(?:\.\d{1,7})?$/.test(text) ? Number(text) : NaN;
        if (!(Number.isInteger(n) && n >= 1 && n <= max)) {
          ctx.addIssue({ code: 'custom', message: `must be an integer from 1 to ${max}` });
          return z.NEVER;
        }
        return n;
      })
      .optional()
      // Read from text, so the schema says what the text must hold: a whole number in range.
      .meta({ type: 'integer', minimum: 1, maximum: max, default: fallback, description: `Page size, 1–${max} (default ${fallback}).` })
  );
}

/** Reports `dateTo` before `dateFrom` as one more problem of the query (every problem is listed at once). */
export function checkDateRange(q: { dateFrom?: unknown; dateTo?: unknown }, ctx: z.RefinementCtx): void {
  if (typeof q.dateFrom === 'number' && typeof q.dateTo === 'number' && q.dateFrom > q.dateTo) {
    ctx.addIssue({ code: 'custom', path: ['dateTo'], message: 'must not be before dateFrom' });
  }
}
