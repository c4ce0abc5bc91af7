import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import { startThread } from '../../platform/threads/startThread.js';
import { MAX_LANGUAGES_TO_COMPILE, type WarmUpResult } from './warmUpHighlighter.js';

/** One block to tokenize: its cache key, grammar id and code as highlighted. */
export interface TokenizeRequest {
  key: string;
  id: string;
  code: string;
}

/** Main thread → tokenizer thread, on the thread's own port. */
export type ToTokenizerThread =
  | { type: 'warm'; languages: readonly string[] }
  | { type: 'tokenize'; requests: TokenizeRequest[]; shared: Int32Array; results: MessagePort; urgent: MessagePort };

/** Slots of the `shared` Int32Array: bumped after each block and batch (waited on); 1 once the thread serves requests. */
export const BEAT = 0;
export const SERVING = 1;

/**
 * Tokenizer thread → main thread (`ready`, once its code and regex engine are loaded, and
 * `warmed` on the thread's own port; the rest on the results port).
 */
export type FromTokenizerThread =
  | { type: 'ready' }
  | { type: 'warmed'; warmed: WarmUpResult }
  /** A null JSON: the thread could not tokenize that block. */
  | { type: 'tokens'; entries: [key: string, json: string | null][] }
  | { type: 'failed'; message: string };

/**
 * Whether a site that fences these languages is worth a tokenizer thread. One with more than a
 * warm-up compiles ahead tokenizes on the render thread: the tokenizer thread holds its own copy
 * of each grammar it loads (the render thread keeps one for when the thread can't answer), and a
 * site with tens of languages would hold tens of MB twice.
 */
export function worthATokenizerThread(languages: readonly string[]): boolean {
  return languages.length <= MAX_LANGUAGES_TO_COMPILE;
}

/**
 * Grammars, compiled regexes and the tokenizer's line memory: tens of MiB on a site with many
 * languages. Past the cap the thread dies, and the render tokenizes what is left itself. A small
 * young generation: what the thread allocates is short-lived, and a large one only raises RSS.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 4 };
/**
 * A thread that hasn't finished a block for this long is taken for stuck (or dead): the render
 * stops asking it. Only a thread that died mid-job costs this wait, once.
 */
const STALL_MS = 5_000;
/** How long one wait for the thread's answer lasts before the render checks it for a stall. */
const WAIT_SLICE_MS = 100;
/**
 * How long a page waits for a thread that is still loading its grammars for the job; after that
 * pages tokenize their own code until it serves (grammars it didn't warm, on a busy machine).
 */
const SETUP_WAIT_MS = 1_000;

/**
 * The wall-clock limits of a page's wait for the thread. They decide only which thread tokenizes
 * a block, never the output; tests pass long ones so that machine load can't change which.
 */
export interface ThreadWaitLimits {
  /** See SETUP_WAIT_MS. */
  setupWaitMs: number;
  /** See STALL_MS. */
  stallMs: number;
}
const DEFAULT_WAIT_LIMITS: ThreadWaitLimits = { setupWaitMs: SETUP_WAIT_MS, stallMs: STALL_MS };

/**
 * Whether a page that asked the thread for a block keeps waiting: for a thread that serves, as
 * long as it keeps finishing blocks; for one still loading its grammars, SETUP_WAIT_MS, after
 * which the page tokenizes the block itself (and pages don't wait again until it serves).
 */
export function waitVerdict(
  state: { serving: boolean; sinceAsked: number; sinceBeat: number },
  limits: ThreadWaitLimits = DEFAULT_WAIT_LIMITS,
): 'wait' | 'tokenize here' | 'give up' {
  if (!state.serving) return state.sinceAsked > limits.setupWaitMs ? 'tokenize here' : 'wait';
  return state.sinceBeat > limits.stallMs ? 'give up' : 'wait';
}

/**
 * The thread that does a render's tokenizing (the largest single cost of a cold render), so on a
 * machine with a spare core it mostly leaves the render's path. It is handed every code block of
 * the site that the token cache lacks, in page order, and works through them while pages render;
 * their tokens come back as the JSON the cache keeps. A page that reaches a block the thread
 * hasn't got to yet asks for it at once (`tokenizeNow`): the thread takes it before the rest,
 * and the page waits for it rather than compiling the grammar on this thread too (the compiled
 * regexes of a grammar take tens of MiB, which two threads would each hold). The output is the
 * same whichever thread tokenizes a block; if this one fails or stalls, the render tokenizes on
 * its own thread. Started ahead of a job, it warms its grammars while waiting (`warmUp`).
 */
export class CodeTokenizerThread {
  private readonly worker: Worker;
  private results: MessagePort | null = null;
  private urgent: MessagePort | null = null;
  private onTokens: ((key: string, json: string) => void) | null = null;
  /** Blocks the thread could not tokenize: the render tokenizes them and reports why. */
  private readonly refused = new Set<string>();
  /** See BEAT and SERVING. */
  private readonly shared = new Int32Array(new SharedArrayBuffer(8));
  /** A page waited SETUP_WAIT_MS for the thread to serve: none waits again until it does. */
  private setupTooSlow = false;
  private usable = true;
  /** Settles once the thread has loaded its code and regex engine (or is gone). Until then pages don't wait for it. */
  readonly ready: Promise<void>;
  private started = false;
  /** Blocks whose tokens arrived from the thread (for tests and profiling). */
  delivered = 0;

  constructor(private readonly limits: ThreadWaitLimits = DEFAULT_WAIT_LIMITS) {
    this.worker = startThread(new URL('./tokenizeAheadThread.js', import.meta.url), {}, THREAD_LIMITS);
    this.worker.on('error', () => this.giveUp());
    this.worker.on('exit', () => this.giveUp());
    this.worker.unref();
    this.ready = new Promise((resolve) => {
      const started = (message: FromTokenizerThread) => {
        if (message.type !== 'ready') return;
        this.started = true;
        this.worker.off('message', started);
        resolve();
      };
      this.worker.on('message', started);
      this.worker.once('exit', () => resolve());
    });
  }

  /** Compiles and practises these languages' grammars while the thread has nothing else to do. */
  warmUp(languages: readonly string[]): Promise<WarmUpResult | null> {
    return new Promise((resolve) => {
      const answer = (message: FromTokenizerThread) => {
        if (message.type !== 'warmed') return;
        this.worker.off('message', answer);
        resolve(message.warmed);
      };
      this.worker.on('message', answer);
      this.worker.once('exit', () => resolve(null));
      this.worker.postMessage({ type: 'warm', languages } satisfies ToTokenizerThread);
    });
  }

  /**
   * Hands over the blocks to tokenize ahead, in the order pages show them (once per thread);
   * `onTokens` receives each block's tokens as JSON, on this thread, when the event loop turns
   * or while `tokenizeNow` waits.
   */
  tokenize(requests: TokenizeRequest[], onTokens: (key: string, json: string) => void): void {
    if (this.results || !this.usable) return;
    const results = new MessageChannel();
    const urgent = new MessageChannel();
    this.results = results.port1;
    this.urgent = urgent.port1;
    this.onTokens = onTokens;
    results.port1.on('message', (message: FromTokenizerThread) => this.take(message));
    results.port1.unref();
    this.worker.postMessage(
      { type: 'tokenize', requests, shared: this.shared, results: results.port2, urgent: urgent.port2 } satisfies ToTokenizerThread,
      [results.port2, urgent.port2],
    );
  }

  /** Takes in every batch of tokens that has arrived, without waiting for the event loop. */
  collect(): void {
    for (let m = this.results && receiveMessageOnPort(this.results); m; m = this.results && receiveMessageOnPort(this.results))
      this.take(m.message as FromTokenizerThread);
  }

  /**
   * Asks for one block's tokens ahead of everything else and waits for them (blocking this
   * thread: the page can't go on without them), until `has` says they arrived or the thread
   * can't deliver them (still starting, refused, gone, failed, stalled): the caller then
   * tokenizes them itself.
   */
  tokenizeNow(request: TokenizeRequest, has: () => boolean): void {
    this.collect();
    // A thread still loading its code could take long (or die) before it answers.
    if (!this.started || !this.urgent || !this.usable || has() || this.refused.has(request.key)) return;
    const serving = () => Atomics.load(this.shared, SERVING) === 1;
    if (this.setupTooSlow && !serving()) return;
    this.urgent.postMessage(request);
    const asked = performance.now();
    let beat = Atomics.load(this.shared, BEAT);
    let lastBeat = asked;
    for (;;) {
      this.collect();
      if (has() || this.refused.has(request.key) || !this.usable) return;
      Atomics.wait(this.shared, BEAT, beat, WAIT_SLICE_MS);
      const now = performance.now();
      if (Atomics.load(this.shared, BEAT) !== beat) {
        beat = Atomics.load(this.shared, BEAT);
        lastBeat = now;
      }
      const verdict = waitVerdict({ serving: serving(), sinceAsked: now - asked, sinceBeat: now - lastBeat }, this.limits);
      if (verdict === 'tokenize here') this.setupTooSlow = true;
      if (verdict === 'give up') this.giveUp();
      if (verdict !== 'wait') return;
    }
  }

  /** Stops the thread (whatever it has not sent is no longer wanted). */
  async close(): Promise<void> {
    this.giveUp();
    await this.worker.terminate();
  }

  private take(message: FromTokenizerThread): void {
    if (message.type === 'tokens')
      for (const [key, json] of message.entries) {
        if (json === null) this.refused.add(key);
        else {
          this.delivered++;
          this.onTokens?.(key, json);
        }
      }
    else if (message.type === 'failed') this.giveUp();
  }

  /** From now on the render tokenizes on its own thread. */
  private giveUp(): void {
    this.usable = false;
    this.results?.close();
    this.urgent?.close();
    this.results = null;
    this.urgent = null;
    this.onTokens = null;
  }
}
