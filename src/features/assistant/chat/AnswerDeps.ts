import type { Logger } from 'pino';
import type { IngestGuard } from '../../../http/IngestGuard.js';
import type { Clock } from '../../../platform/Clock.js';
import type { Retriever } from '../retrieval/Retriever.js';
import type { ThreadLog } from '../threads/ThreadLog.js';
import type { ChatModelSettings } from './ChatModelSettings.js';

/** What answering needs: retrieval, the model, the thread log and its bounds. */
export interface AnswerDeps {
  retriever: Retriever;
  /** The model settings, or undefined while the assistant is off or has no endpoint. */
  model(): ChatModelSettings | undefined;
  threads: ThreadLog;
  /** Global message rate and the free-space floor for recording threads. */
  guard: IngestGuard;
  clock: Clock;
  logger: Logger;
  maxPromptChars: number;
}
