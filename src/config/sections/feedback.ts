import { z } from 'zod';

/** Reader feedback ingestion and the analytics API (SPEC section 6). */
export const feedbackConfigSchema = z.strictObject({
  perClientPerMinute: z.number().int().positive().describe('Feedback posts accepted per client address per minute.'),
  perPagePerMinute: z.number().int().positive().describe('Feedback posts accepted per page per minute, from all clients together.'),
  globalPerMinute: z
    .number()
    .int()
    .positive()
    .describe('Feedback posts accepted per minute from all clients together (flood bound; more get 429).'),
  retentionDays: z
    .number()
    .int()
    .min(0)
    .describe('Drop whole monthly segments once all their entries are older than this many days; 0 keeps everything.'),
  retentionCron: z.string().min(1).describe('When retention runs (node-cron expression).'),
  groupCommitMs: z
    .number()
    .min(0)
    .max(100)
    .describe(
      'How long an append may wait to share one fsync with others. 0: none; appends that arrive while a write is in flight still share the next one.',
    ),
  allowedOrigins: z.array(z.string()).describe('Extra origins allowed to post feedback (the site itself always is).'),
});

/** Reading analytics: collection (views, visitors, searches) and the analytics API limits. */
export const analyticsConfigSchema = z.strictObject({
  requestsPerHour: z.number().int().positive().describe('Analytics requests per project per hour.'),
  collect: z
    .boolean()
    .describe(
      'Count page views, visitors and searches of the served site. false: nothing is recorded (queries still answer from what is kept).',
    ),
  retentionDays: z
    .number()
    .int()
    .min(0)
    .describe('Delete whole days of analytics events once older than this many days; 0 keeps everything.'),
  retentionCron: z.string().min(1).describe('When analytics retention runs (node-cron expression).'),
  eventsPerMinute: z
    .number()
    .int()
    .positive()
    .describe('Analytics events stored per minute from all clients together; more are dropped (pages are still served).'),
  viewsPerAddressPerMinute: z
    .number()
    .int()
    .positive()
    .describe('Page views counted per client address per minute, before the global budget; more are not counted.'),
  visitorsPerAddressPerHour: z
    .number()
    .int()
    .positive()
    .describe('New visitors (user agents) one client address may add per hour; past it its views count as one more visitor.'),
  searchesPerAddressPerMinute: z
    .number()
    .int()
    .positive()
    .describe('Search-box beacons accepted per client address per minute, before the global budget (429 above).'),
  repeatViewSeconds: z
    .number()
    .int()
    .min(0)
    .max(86_400)
    .describe('A visitor fetching the same page again within this many seconds (reloads, 304s) is counted once.'),
  flushMs: z
    .number()
    .int()
    .min(1)
    .max(60_000)
    .describe('Events are batched in memory and appended this often, off the request path; a crash loses at most this window.'),
});
