import { z } from 'zod';
import { isUlid } from '../../../platform/newUlid.js';

/** The limits a message body is checked against (config `assistant.*`). */
export interface MessageLimits {
  maxMessageChars: number;
  maxHistoryMessages: number;
}

/**
 * A message as either SDK's `useChat` sends it: v4 `{ role, content }` (parts optional), v5
 * `{ role, parts: [{ type: 'text', text }] }`. Other part types (files, tools) are ignored.
 */
const chatMessageSchema = z
  .object({
    id: z.string().max(200).optional(),
    role: z.enum(['user', 'assistant']),
    content: z.string().optional(),
    parts: z
      .array(z.object({ type: z.string(), text: z.string().optional() }).loose())
      .max(100)
      .optional(),
  })
  .loose();

/** The text of a message: its `content`, else its text parts joined. */
export function messageText(message: z.infer<typeof chatMessageSchema>): string {
  if (typeof message.content === 'string' && message.content.length > 0) return message.content;
  return (message.parts ?? []).flatMap((p) => (p.type === 'text' && typeof p.text === 'string' ? [p.text] : [])).join('');
}

/**
 * `POST /v1|v2/assistant/{domain}/message` (hosted shape). Unknown top-level fields are
 * allowed because the SDKs add their own (`id`, `trigger`, `messageId`); every known one is checked.
 */
export function messageBodySchema(limits: MessageLimits) {
  return z
    .object({
      fp: z.string().min(1).max(200).describe('Fingerprint of the reader (anonymous or a user id), stored as given'),
      threadId: z.string().refine(isUlid, 'must be a thread id (a ULID) from an earlier answer').optional(),
      messages: z
        .array(chatMessageSchema)
        .min(1)
        .max(limits.maxHistoryMessages, `at most ${limits.maxHistoryMessages} messages (history included)`)
        .superRefine((messages, ctx) => {
          messages.forEach((message, i) => {
            if (messageText(message).length > limits.maxMessageChars)
              ctx.addIssue({ code: 'custom', path: [i], message: `longer than ${limits.maxMessageChars} characters` });
          });
          const last = messages.at(-1);
          if (last && (last.role !== 'user' || messageText(last).trim() === ''))
            ctx.addIssue({
              code: 'custom',
              path: [messages.length - 1],
              message: 'the last message must be the reader’s question (role user, with text)',
            });
        })
        .describe('The conversation, oldest first; the last one is the question'),
      retrievalPageSize: z.number().int().min(1).max(50).optional().describe('Sections retrieved for the answer'),
      filter: z
        .strictObject({
          version: z.string().min(1).max(100).optional(),
          language: z.string().min(1).max(35).optional(),
          groups: z.array(z.string().min(1).max(100)).max(50).optional(),
        })
        .optional()
        .describe("Defaults to the version and language of `currentPath`, else the site's defaults"),
      context: z
        .array(
          z.strictObject({
            type: z.enum(['code', 'textSelection']),
            value: z.string().min(1).max(limits.maxMessageChars),
            path: z.string().max(1000).optional(),
            elementId: z.string().max(200).optional(),
          }),
        )
        .max(10)
        .optional()
        .describe('Code or text the reader pointed at'),
      currentPath: z.string().max(1000).optional().describe('The page the reader asks from'),
    })
    .loose();
}

/** A validated message body. */
export type MessageBody = z.infer<ReturnType<typeof messageBodySchema>>;
