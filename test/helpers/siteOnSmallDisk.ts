import type { ExecutionContext } from 'ava';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeBundle } from '../deploy/helpers/testBundles.js';
import { mountSmallDisk, type SmallDisk } from './smallDisk.js';
import { makeTempDir, startTestAppliance, type ConfigOverrides, type TestAppliance } from './testAppliance.js';

/** A small disk unmounted at teardown, or null after logging that the test is skipped (mounting needs root). */
export function mountSmallDiskOrSkip(t: ExecutionContext, sizeMb: number): SmallDisk | null {
  const disk = mountSmallDisk(sizeMb);
  if (!disk) {
    t.log('SKIPPED: mounting a tmpfs needs root');
    t.pass();
    return null;
  }
  t.teardown(() => disk.unmount());
  return disk;
}

/** An appliance whose data directory is on a small disk, with the test site deployed at each of `versions` (the last one live). */
export interface SiteOnSmallDisk {
  disk: SmallDisk;
  app: TestAppliance;
  dataDir: string;
  /** Config of the appliance, to restart it on the same data directory. */
  overrides: ConfigOverrides;
  /** The bundle zip of a deployed version. */
  bundlePath(version: string): string;
}

/** Starts a SiteOnSmallDisk, or resolves null (skipped, logged) where mounting isn't allowed. */
export async function startSiteOnSmallDisk(t: ExecutionContext, sizeMb: number, versions: string[]): Promise<SiteOnSmallDisk | null> {
  const disk = mountSmallDiskOrSkip(t, sizeMb);
  if (!disk) return null;
  const outside = await makeTempDir('enclave-small-disk-bundles-');
  t.teardown(() => rm(outside, { recursive: true, force: true }));
  const dataDir = join(disk.dir, 'data');
  // The test bundles name docs.test.internal: a site of the default project, so feedback has an owner.
  const overrides: ConfigOverrides = { sites: [{ domain: 'docs.test.internal', source: outside }] };
  const app = await startTestAppliance({ dataDir, overrides });
  t.teardown(() => app.stop());
  const bundlePath = (version: string) => join(outside, `${version}.zip`);
  for (const version of versions) {
    await writeBundle(bundlePath(version), version);
    const res = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: bundlePath(version) } });
    if (res.status !== 200) throw new Error(`deploying ${version}: ${res.status} ${await res.text()}`);
  }
  return { disk, app, dataDir, overrides, bundlePath };
}
