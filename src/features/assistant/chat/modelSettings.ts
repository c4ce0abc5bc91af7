import type { Config } from '../../../config/schema.js';
import type { ChatModelSettings } from './ChatModelSettings.js';

/** Answers are kept short: a docs answer that needs more than this is a page, not an answer. */
const MAX_ANSWER_TOKENS = 1024;

/** The model settings from `assistant.*`, or undefined while answering is off or has no endpoint. */
export function modelSettings(settings: Config['assistant']): ChatModelSettings | undefined {
  if (!settings.enabled || !settings.endpoint) return undefined;
  return {
    endpoint: settings.endpoint,
    model: settings.model,
    apiKey: settings.apiKey ?? undefined,
    connectTimeoutMs: settings.connectTimeoutMs,
    firstTokenTimeoutMs: settings.firstTokenTimeoutMs,
    idleTimeoutMs: settings.idleTimeoutMs,
    totalTimeoutMs: settings.totalTimeoutMs,
    maxAnswerTokens: MAX_ANSWER_TOKENS,
  };
}
