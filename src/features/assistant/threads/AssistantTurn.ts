import { z } from 'zod';

/**
 * One question and its answer, as the thread log stores it (one JSON line). A thread is the
 * turns that share `threadId`; its first turn's time is the thread's creation time.
 */
export const assistantTurnSchema = z.object({
  /** ULID of the answer message; the question's message id is `${id}-q`. */
  id: z.string(),
  threadId: z.string(),
  projectId: z.string(),
  domain: z.string(),
  /** The reader's fingerprint exactly as the client sent it (no cookie is ever set). */
  fp: z.string(),
  /** `web`: the site's own panel; `api`: an assistant key; `other`: anything else. */
  caller: z.enum(['web', 'api', 'other']),
  /** When the question arrived (ISO). */
  at: z.string(),
  question: z.string(),
  answer: z.string(),
  sources: z.array(z.object({ title: z.string(), url: z.string() })),
  resolution: z.enum(['answered', 'unanswered', 'failed']),
  /** The page the reader asked from, when known. */
  pageUrl: z.string().nullable(),
});

/** One stored turn. */
export type AssistantTurn = z.infer<typeof assistantTurnSchema>;
