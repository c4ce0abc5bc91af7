import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { AnswerEvent } from '../AnswerEvent.js';
import type { PreparedAnswer } from '../prepareAnswer.js';
import type { AnswerStreamFormat } from './AnswerStreamFormat.js';

/**
 * Streams a prepared answer as the response in `format`. The thread id also goes out as the
 * `X-Thread-Id` header (for clients that read no stream parts). A reader who hangs up aborts
 * the answer, and with it the request to the model.
 */
export function writeAnswerStream(ctx: Context, prepared: PreparedAnswer, format: AnswerStreamFormat): void {
  const reader = new AbortController();
  const body = new PassThrough();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) reader.abort();
  });
  ctx.status = 200;
  ctx.set({ ...format.headers, 'X-Thread-Id': prepared.threadId, 'Access-Control-Expose-Headers': 'X-Thread-Id' });
  ctx.body = body;
  void (async () => {
    try {
      for await (const event of prepared.events(reader.signal)) {
        if (reader.signal.aborted) continue; // let the answer finish its bookkeeping
        body.write(encode(format, event));
      }
    } finally {
      body.end();
    }
  })();
}

function encode(format: AnswerStreamFormat, event: AnswerEvent): string {
  switch (event.type) {
    case 'start':
      return format.start(event);
    case 'text':
      return format.text(event.text);
    case 'sources':
      return format.sources(event.sources);
    case 'error':
      return format.error(event.message);
    case 'finish':
      return format.finish(event);
  }
}
