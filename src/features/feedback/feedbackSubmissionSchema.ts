import { z } from 'zod';
import type { ActiveSite } from '../deployments/ActiveSite.js';
import { FEEDBACK_SOURCES, type FeedbackSource } from './FeedbackEntry.js';

/** Field limits for one submission (the whole body is also capped by `limits.feedbackBodyBytes`). */
export const FEEDBACK_LIMITS = { path: 2048, comment: 5000, contact: 254, code: 12000, filename: 255, lang: 64 } as const;

type Field = 'helpful' | 'comment' | 'contact' | 'code' | 'filename' | 'lang';

/** Which optional fields each source accepts, and which it requires. */
const SOURCE_RULES: Record<FeedbackSource, { required: Field[]; allowed: Field[] }> = {
  contextual: { required: ['helpful'], allowed: ['helpful', 'comment', 'contact'] },
  code_snippet: { required: ['code'], allowed: ['code', 'comment', 'filename', 'lang'] },
  thumbs_only: { required: ['helpful'], allowed: ['helpful'] },
  // The "Ask AI" panel rates an answer (helpful) and names its thread in the comment.
  agent: { required: [], allowed: ['helpful', 'comment'] },
};
const FIELDS: Field[] = ['helpful', 'comment', 'contact', 'code', 'filename', 'lang'];

/**
 * The body of `POST /_enclave/feedback`. Every problem is reported at once: field types and
 * lengths, e-mail syntax, fields the source requires or doesn't take (the page path is checked
 * against the request's site by checkFeedbackPath, reported alongside).
 */
export function feedbackSubmissionSchema() {
  return z
    .strictObject({
      source: z.enum(FEEDBACK_SOURCES).describe('What kind of feedback this is.'),
      path: z
        .string()
        .min(1)
        .max(FEEDBACK_LIMITS.path)
        .startsWith('/', 'must start with /')
        .describe('Page path on the live site, e.g. /guides/start.'),
      helpful: z.boolean().optional().describe('Page rating (contextual, thumbs_only).'),
      comment: z.string().max(FEEDBACK_LIMITS.comment).optional().describe('Free text from the reader.'),
      contact: z
        .email('must be an e-mail address')
        .max(FEEDBACK_LIMITS.contact)
        .optional()
        .describe('Reader e-mail for a reply (contextual).'),
      code: z.string().min(1).max(FEEDBACK_LIMITS.code).optional().describe('The code block the feedback is about (code_snippet).'),
      filename: z.string().max(FEEDBACK_LIMITS.filename).optional().describe('Title of the code block (code_snippet).'),
      lang: z.string().max(FEEDBACK_LIMITS.lang).optional().describe('Language of the code block (code_snippet).'),
    })
    .superRefine(
      (body, ctx) => {
        const rules = SOURCE_RULES[body.source as FeedbackSource];
        if (rules) {
          for (const field of rules.required) {
            if (body[field] === undefined)
              ctx.addIssue({ code: 'custom', path: [field], message: `required when source is ${body.source}` });
          }
          for (const field of FIELDS) {
            if (body[field] !== undefined && !rules.allowed.includes(field))
              ctx.addIssue({ code: 'custom', path: [field], message: `not accepted when source is ${body.source}` });
          }
        }
      },
      // Run even when fields failed, so the client sees every problem in one answer.
      { when: () => true },
    );
}

/**
 * A posted path that isn't a page of the site live for the request's `host` (checked only while
 * that site is live; without one the route answers 503).
 */
export function checkFeedbackPath(
  activeSite: ActiveSite,
  host: string,
  body: unknown,
  readerMayOpen?: (path: string) => boolean,
): { message: string }[] {
  const site = activeSite.current(host);
  const path = body && typeof body === 'object' ? (body as { path?: unknown }).path : undefined;
  // A page the reader may not open (reader sign-in) gets the very answer a missing page gets.
  if (site && typeof path === 'string' && path.startsWith('/') && (!site.pagePaths.has(path) || readerMayOpen?.(path) === false))
    return [{ message: 'body.path: not a page of the live site' }];
  return [];
}
