import AdmZip from 'adm-zip';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ConfigOverrides, TestAppliance } from '../../test/helpers/testAppliance.js';

/**
 * The child process of an assistant bench: zips the export in `out` as a bundle, starts an
 * appliance with `overrides` and makes the bundle live; once `ready` has resolved, prints its
 * URL and a new assistant key as one JSON line, and runs until the parent writes a line or
 * closes stdin. The appliance runs in its own process so the parent's load never shares its thread.
 */
export async function serveBenchAppliance(
  out: string,
  overrides: ConfigOverrides,
  ready: (app: TestAppliance) => Promise<void> = async () => {},
): Promise<void> {
  const { startTestAppliance } = await import('../../test/helpers/testAppliance.js');
  const zip = join(tmpdir(), `enclave-bench-assistant-${process.pid}.zip`);
  const bundle = new AdmZip();
  bundle.addLocalFolder(out);
  await bundle.writeZipPromise(zip);
  const app = await startTestAppliance({ overrides });
  await app.features.deployments.activateBundleFile(zip, { source: 'bench' });
  await ready(app);
  const made = await app.api('/v1/keys', { method: 'POST', json: { name: 'bench', kind: 'assistant' } });
  const { key } = (await made.json()) as { key: string };
  process.stdout.write(`${JSON.stringify({ url: app.url, key })}\n`);
  for await (const _ of createInterface({ input: process.stdin })) break;
  await app.close();
  process.exit(0);
}
