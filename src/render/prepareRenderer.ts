import { availableParallelism } from 'node:os';
import type { CodeTokenizerThread } from './code/CodeTokenizerThread.js';
import type { WarmUpResult } from './code/warmUpHighlighter.js';
import { preloadRenderer } from './preloadRenderer.js';

/** What a renderer is prepared for: the code languages of the site it will most likely render. */
export interface RendererPreparation {
  /** Fence languages to get ready first (those a site's last export used, say). */
  languages: readonly string[];
  /** Docs folders whose pages are read for the languages they use, after `languages`. */
  sources: readonly string[];
  /** Aborted once the job arrives: preparing stops then, so it never delays the job by more than a step. */
  signal: AbortSignal;
}

/** A renderer prepared ahead of its job; hand `codeThread` to renderSite, `close` it after. */
export interface PreparedRenderer {
  /** Grammars loaded and compiled ahead, and rounds of practice, once preparing stops (null: it failed). */
  readonly warmed: Promise<WarmUpResult | null>;
  /** The tokenizer thread started for the job, if the site is worth one (renderSite's `codeThread`). */
  readonly codeThread: () => CodeTokenizerThread | undefined;
  /** Stops the tokenizer thread: once the render is done, its CPU and memory are better spent elsewhere. */
  close(): Promise<void>;
}

/**
 * Prepares this process's renderer while it has nothing else to do: loads the renderer
 * (preloadRenderer), reads the pages under `sources` for their code languages, starts the
 * tokenizer thread when the site is worth one, and warms the grammars up (loads them, compiles
 * and practises a sample of each) on whichever thread will tokenize the job's code. Each step
 * checks `signal` first. A failed step is not fatal: the render loads what it needs itself.
 */
export function prepareRenderer(preparation: RendererPreparation): PreparedRenderer {
  let thread: CodeTokenizerThread | undefined;
  const warmed = warmUp(preparation, (started) => (thread = started)).catch(() => null);
  return {
    warmed,
    codeThread: () => thread,
    close: async () => thread?.close(),
  };
}

async function warmUp({ languages, sources, signal }: RendererPreparation, started: (thread: CodeTokenizerThread) => void) {
  await preloadRenderer();
  const [{ scanSourceLanguages }, { CodeTokenizerThread, worthATokenizerThread }, { warmUpHighlighter }] = await Promise.all([
    import('./code/scanSourceLanguages.js'),
    import('./code/CodeTokenizerThread.js'),
    import('./code/warmUpHighlighter.js'),
  ]);
  const stop = () => signal.aborted;
  const found = await scanSourceLanguages(sources, stop);
  const all = [...new Set([...languages, ...found])];
  let thread: CodeTokenizerThread | undefined;
  // Not on a single core, where a tokenizer thread would only take turns with the render.
  if (!stop() && worthATokenizerThread(all) && availableParallelism() > 1) started((thread = new CodeTokenizerThread()));
  // Whichever thread will tokenize the job's code warms up for it; this one loads the grammars
  // either way (for when the tokenizer thread can't answer).
  const here = warmUpHighlighter(all, stop, { loadOnly: thread !== undefined });
  return thread?.warmUp(all) ?? here;
}
