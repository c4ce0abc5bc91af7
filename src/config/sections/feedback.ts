import { z } from 'zod';

/** Reader feedback ingestion and the analytics API (SPEC section 6). */
export const feedbackConfigSchema = z.strictObject({
  perClientPerMinute: z.number().int().positive().describe('Feedback posts accepted per client address per minute.'),
  retentionDays: z.number().int().min(0).describe('Drop whole monthly segments once all their entries are older than this many days; 0 keeps everything.'),
  retentionCron: z.string().min(1).describe('When retention runs (node-cron expression).'),
  groupCommitMs: z.number().min(0).max(100).describe('How long an append may wait to share one fsync with others. 0: none; appends that arrive while a write is in flight still share the next one.'),
  allowedOrigins: z.array(z.string()).describe('Extra origins allowed to post feedback (the site itself always is).'),
});

/** Analytics API limits. */
export const analyticsConfigSchema = z.strictObject({
  requestsPerHour: z.number().int().positive().describe('Analytics requests per project per hour.'),
});
