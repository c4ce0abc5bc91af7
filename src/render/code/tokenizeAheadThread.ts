/**
 * Body of the thread that tokenizes a render's code blocks (see CodeTokenizerThread). It warms
 * its grammars while the export worker waits for a job, then works through the blocks it is
 * handed, taking any block a page asks for urgently before the rest.
 */
import { parentPort, receiveMessageOnPort } from 'node:worker_threads';
import { createShikiTokenizer, type ShikiTokenizer } from './createShikiTokenizer.js';
import { warmUpHighlighter } from './warmUpHighlighter.js';
import { BEAT, type FromTokenizerThread, SERVING, type TokenizeRequest, type ToTokenizerThread } from './CodeTokenizerThread.js';

/** Tokens ahead are sent once this many blocks are ready, or this long after the last batch left. */
const BATCH_BLOCKS = 32;
const BATCH_MS = 4;

const port = parentPort!;
let jobArrived = false;

port.on('message', (message: ToTokenizerThread) => {
  if (message.type === 'warm') {
    void warmUpHighlighter(message.languages, () => jobArrived)
      .then((warmed) => port.postMessage({ type: 'warmed', warmed } satisfies FromTokenizerThread))
      .catch(() => {});
    return;
  }
  jobArrived = true;
  void serve(message).catch((err: unknown) =>
    message.results.postMessage({ type: 'failed', message: (err as Error).message } satisfies FromTokenizerThread),
  );
});

// Ready once the regex engine is loaded: a page that waits for this thread then waits only for
// its grammars and its block. (An engine that fails to load leaves the thread never ready.)
void createShikiTokenizer([])
  .then(() => port.postMessage({ type: 'ready' } satisfies FromTokenizerThread))
  .catch(() => {});

async function serve({ requests, shared, results, urgent }: Extract<ToTokenizerThread, { type: 'tokenize' }>): Promise<void> {
  const tokenizer = await createShikiTokenizer([]);
  await tokenizer.load(new Set(requests.map((r) => r.id)));
  Atomics.store(shared, SERVING, 1);
  const done = new Set<string>();
  let batch: [key: string, json: string | null][] = [];
  let sent = performance.now();
  /** Sends what is ready, and wakes a page that may be waiting for it. */
  const send = () => {
    if (batch.length) results.postMessage({ type: 'tokens', entries: batch } satisfies FromTokenizerThread);
    batch = [];
    sent = performance.now();
    Atomics.add(shared, BEAT, 1);
    Atomics.notify(shared, BEAT);
  };
  const tokenizeOne = (request: TokenizeRequest) => {
    if (done.has(request.key)) return;
    done.add(request.key);
    batch.push([request.key, tokensJson(tokenizer, request)]);
  };
  /** Urgent requests come first: a page is waiting for each. */
  const serveUrgent = async (request: TokenizeRequest) => {
    await tokenizer.load([request.id]);
    tokenizeOne(request);
    send();
  };

  for (const request of requests) {
    for (let m = receiveMessageOnPort(urgent); m; m = receiveMessageOnPort(urgent)) await serveUrgent(m.message as TokenizeRequest);
    tokenizeOne(request);
    if (batch.length >= BATCH_BLOCKS || performance.now() - sent >= BATCH_MS) send();
    else Atomics.add(shared, BEAT, 1);
  }
  send();
  // The list is done; pages may still ask for blocks it didn't have (snippets, API examples).
  urgent.on('message', (request: TokenizeRequest) => void serveUrgent(request));
}

/** A block's tokens as the cache keeps them, or null if they can't be had (the page then tokenizes it and reports why). */
function tokensJson(tokenizer: ShikiTokenizer, request: TokenizeRequest): string | null {
  if (!tokenizer.isLoaded(request.id)) return null;
  try {
    return JSON.stringify(tokenizer.tokenize(request.code, request.id));
  } catch {
    return null;
  }
}
