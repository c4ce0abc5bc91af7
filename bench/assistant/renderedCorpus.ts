import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFolderSink } from '../../src/bundle/openFolderSink.js';
import { hashDocsSource, renderSite } from '../../src/render/index.js';

/**
 * A folder holding an export of `sourceDir` (as a bundle unpacks), rendered on first use and kept
 * in the temp directory by source hash: the eval and the benches read the export's section
 * chunks, and a corpus takes a minute or more to render on a busy machine.
 */
export async function renderedCorpus(name: string, sourceDir: string, log: (line: string) => void = () => {}): Promise<string> {
  const hash = (await hashDocsSource(sourceDir)).slice(0, 12);
  const out = join(tmpdir(), `enclave-eval-${name}-${hash}`);
  if (existsSync(join(out, '_enclave', 'manifest.json'))) return out;
  log(`rendering ${name} (cached at ${out} for the next run)…`);
  const partial = `${out}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  await renderSite({
    sourceDir,
    out: await openFolderSink(join(partial, 'site')),
    cacheDir: join(partial, 'cache'),
    domain: `${name}.eval.internal`,
    jobId: 'eval',
    now: new Date(),
    generatorVersion: 'eval',
  });
  await rm(out, { recursive: true, force: true });
  await rename(join(partial, 'site'), out);
  await rm(partial, { recursive: true, force: true });
  return out;
}
