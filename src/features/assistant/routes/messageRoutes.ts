import type { Context } from 'koa';
import { defineRoute, type RouteRateLimit, type RouteSpec } from '../../../http/defineRoute.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';
import type { AnswerRequest } from '../chat/AnswerRequest.js';
import type { AnswerDeps } from '../chat/AnswerDeps.js';
import { prepareAnswer } from '../chat/prepareAnswer.js';
import type { AnswerStreamFormat } from '../chat/stream/AnswerStreamFormat.js';
import { dataStreamV4 } from '../chat/stream/dataStreamV4.js';
import { uiMessageStreamV5 } from '../chat/stream/uiMessageStreamV5.js';
import { writeAnswerStream } from '../chat/stream/writeAnswerStream.js';
import { callerAudience } from '../access/callerAudience.js';
import { assistantCaller } from '../authenticateAssistant.js';
import type { ReaderGate } from '../../deployments/site/ReaderGate.js';
import { type MessageBody, type MessageLimits, messageBodySchema, messageText } from './messageSchemas.js';
import { domainParams } from './searchSchemas.js';

/** What the message routes need. */
export interface MessageRouteDeps {
  answers: AnswerDeps;
  limits: MessageLimits & { retrievalPageSize: number };
  rateLimit: RouteRateLimit[];
  bodyLimitBytes: number;
  /** Reader sign-in's gate: which sites have it on (absent: none). */
  readerGate?: ReaderGate;
}

const versions: { path: string; summary: string; format: () => AnswerStreamFormat; contentType: string }[] = [
  {
    path: '/v1/assistant/:domain/message',
    summary: 'Ask the docs: the answer streams as an AI SDK 4 data stream (useChat of ai@4)',
    format: dataStreamV4,
    contentType: 'text/plain',
  },
  {
    path: '/v2/assistant/:domain/message',
    summary: 'Ask the docs: the answer streams as an AI SDK 5 UI message stream (useChat of ai@5)',
    format: uiMessageStreamV5,
    contentType: 'text/event-stream',
  },
];

/** `POST /v1/assistant/{domain}/message` and `POST /v2/…`: answers for assistant keys, in the hosted shapes. */
export function messageRoutes(deps: MessageRouteDeps): RouteSpec[] {
  return versions.map((version) =>
    defineRoute({
      method: 'POST',
      path: version.path,
      summary: version.summary,
      tag: 'assistant',
      auth: 'assistant',
      params: domainParams,
      body: messageBodySchema(deps.limits),
      bodyLimitBytes: deps.bodyLimitBytes,
      rateLimit: deps.rateLimit,
      responses: {
        200: { description: 'The answer, streamed; its thread id in the stream and in X-Thread-Id', contentType: version.contentType },
        400: { description: 'Invalid body (every problem listed)', schema: errorBodySchema },
        401: { description: 'Missing or invalid assistant key (admin keys are refused here)', schema: errorBodySchema },
        403: { description: "A site of another project than the key's", schema: errorBodySchema },
        404: { description: 'No site serves that domain, or no such thread on it', schema: errorBodySchema },
        429: { description: 'Rate limit spent (key, client address, or all readers together; Retry-After)', schema: errorBodySchema },
        503: { description: 'The assistant is off (assistant.enabled, assistant.endpoint)', schema: errorBodySchema },
      },
      async handler(ctx: Context, { body }: { body: MessageBody }) {
        const caller = assistantCaller(ctx);
        const request = answerRequest(
          body,
          {
            domain: caller.domain,
            projectId: caller.projectId,
            caller: 'api',
            audience: callerAudience(deps.readerGate, caller.domain, body.filter?.groups),
          },
          deps.limits.retrievalPageSize,
        );
        writeAnswerStream(ctx, await prepareAnswer(deps.answers, request), version.format());
      },
    }),
  );
}

/** Turns a validated body into the question to answer. */
export function answerRequest(
  body: MessageBody,
  who: Pick<AnswerRequest, 'domain' | 'projectId' | 'caller' | 'audience'>,
  defaultPageSize: number,
): AnswerRequest {
  const texts = body.messages.map((m) => ({ role: m.role, content: messageText(m) }));
  return {
    ...who,
    fp: body.fp,
    threadId: body.threadId,
    question: texts.at(-1)!.content,
    history: texts.slice(0, -1),
    retrievalPageSize: body.retrievalPageSize ?? defaultPageSize,
    filter: body.filter,
    context: body.context ?? [],
    currentPath: body.currentPath,
  };
}
