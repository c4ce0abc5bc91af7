import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { createZipSink } from '../../src/bundle/zip/createZipSink.js';
import type { Clock } from '../../src/platform/Clock.js';
import { renderSite } from '../../src/render/renderSite.js';
import { makeTempDir, startTestAppliance, type ConfigOverrides, type TestAppliance } from '../helpers/testAppliance.js';
import { writeDocs } from '../render/renderFixture.js';

/** The domain the harness site is exported and served as. */
export const ASK_DOMAIN = 'docs.example.com';

/** An appliance serving a real export of `files` as ASK_DOMAIN, with an assistant key of its project. */
export interface AssistantHarness {
  app: TestAppliance;
  /** An assistant key of the site's project. */
  assistantKey: string;
  /** POSTs `json` to `path` with the assistant key (or `key`, null for none). */
  post(path: string, json: unknown, key?: string | null): Promise<Response>;
  close(): Promise<void>;
}

/** Exports the docs in `sourceDir` for real (renderer, zip sink) as ASK_DOMAIN into the zip `zip`. */
export async function renderAskBundle(sourceDir: string, zip: string, jobId = 'job-1'): Promise<void> {
  const sink = createZipSink();
  await renderSite({
    sourceDir,
    out: sink,
    domain: ASK_DOMAIN,
    jobId,
    now: new Date('2026-03-04T05:06:07.000Z'),
    generatorVersion: '9.9.9',
  });
  await sink.finish(zip, new Date());
}

/**
 * Exports `files` for real (renderer, zip sink), deploys the bundle, and creates an assistant
 * key through `POST /v1/keys`. For `test.before`: the export is the slow part, done once a file.
 */
export async function startAssistantHarness(
  files: Record<string, string>,
  options: { overrides?: ConfigOverrides; clock?: Clock; dataDir?: string } = {},
): Promise<AssistantHarness> {
  const cleanup: (() => Promise<void>)[] = [];
  const suite = { teardown: (fn: () => Promise<void>) => void cleanup.push(fn) } as unknown as ExecutionContext;
  const src = await writeDocs(suite, files);
  const dir = await makeTempDir('enclave-ask-');
  await mkdir(dir, { recursive: true });
  const zip = join(dir, 'site.zip');
  await renderAskBundle(src, zip);
  const app = await startTestAppliance({
    clock: options.clock,
    dataDir: options.dataDir,
    overrides: { sites: [{ domain: ASK_DOMAIN, source: src }], ...options.overrides },
  });
  await app.features.deployments.activateBundleFile(zip, { source: 'test export' });
  const made = await app.api('/v1/keys', { method: 'POST', json: { name: 'docs widget', kind: 'assistant' } });
  if (made.status !== 201) throw new Error(`assistant key: ${made.status} ${await made.text()}`);
  const assistantKey = ((await made.json()) as { key: string }).key;
  return {
    app,
    assistantKey,
    post: (path, json, key) => app.api(path, { method: 'POST', json, key: key === undefined ? assistantKey : key }),
    async close() {
      await app.close();
      await rm(dir, { recursive: true, force: true });
      for (const fn of cleanup) await fn();
    },
  };
}
