import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DeploymentRepository } from '../../src/features/deployments/DeploymentRepository.js';
import type { DeploymentRecord } from '../../src/features/deployments/DeploymentRecord.js';
import { newDeploymentRecord } from '../../src/features/deployments/DeployRequest.js';
import type { DeploymentsData } from '../../src/features/deployments/deploymentStore.js';
import { makeTempDir } from '../helpers/testAppliance.js';

const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

function installed(version: string, sha: string) {
  return {
    version,
    domain: 'docs.test',
    jobId: null,
    bundleSha256: sha,
    bundleBytes: 10,
    fileCount: 2,
    extractedBytes: 20,
    failedPages: null,
  } satisfies Partial<DeploymentRecord>;
}

async function opened(): Promise<{ repo: DeploymentRepository; path: string }> {
  const path = join(await makeTempDir(), 'deployments.json');
  return { repo: await DeploymentRepository.open(path), path };
}

/** What the transitions made durable. */
async function onDisk(path: string): Promise<DeploymentsData> {
  return JSON.parse(await readFile(path, 'utf8'));
}

/** Inserts and activates a deployment of `version` at minute `minute`. */
async function deploy(repo: DeploymentRepository, id: string, version: string, minute: number, origin: 'api' | 'config' = 'api') {
  await repo.insert(newDeploymentRecord(id, null, `https://bundles.test/${version}.zip`, { origin, pin: null }, at(minute)));
  await repo.activate(id, installed(version, `sha-${version}`), at(minute));
}

test('activation keeps the previous version, rollback switches back, and both are history events', async (t) => {
  const { repo, path } = await opened();
  await deploy(repo, 'dp_1', 'v1', 1, 'config');
  await deploy(repo, 'dp_2', 'v2', 2);
  t.is(repo.active()?.id, 'dp_2');
  t.deepEqual(
    repo.kept().map((r) => r.id),
    ['dp_1'],
  );
  await repo.rollBackTo('dp_1', at(3), 'from v2');
  const data = await onDisk(path);
  t.is(data.activeId, 'dp_1');
  t.is(data.configBundleSha256, 'sha-v1', 'only a config deployment moves the config bundle mark');
  t.like(
    data.deployments.find((r) => r.id === 'dp_2'),
    { status: 'kept' },
  );
  t.like(
    data.deployments.find((r) => r.id === 'dp_1'),
    { status: 'active', activatedAt: at(3) },
  );
  t.deepEqual(
    repo.status().events.map((e) => [e.kind, e.deploymentId, e.version]),
    [
      ['rolled_back', 'dp_1', 'v1'],
      ['activated', 'dp_2', 'v2'],
      ['activated', 'dp_1', 'v1'],
    ],
  );
});

test('a refused deployment is failed and degrades the site until the next activation clears it', async (t) => {
  const { repo, path } = await opened();
  await deploy(repo, 'dp_1', 'v1', 1);
  await repo.insert(newDeploymentRecord('dp_bad', null, 'https://bundles.test/bad.zip', { origin: 'api', pin: null }, at(2)));
  t.is(repo.running()?.id, 'dp_bad');
  await repo.fail('dp_bad', { reason: 'checksum mismatch', bundleSha256: 'sha-bad', bundleBytes: 5 }, at(3));
  t.is(repo.running(), null);
  t.like(repo.record('dp_bad'), { status: 'failed', error: 'checksum mismatch', bundleSha256: 'sha-bad', finishedAt: at(3) });
  t.deepEqual((await onDisk(path)).lastError, { at: at(3), source: 'https://bundles.test/bad.zip', reason: 'checksum mismatch' });
  t.is(repo.active()?.id, 'dp_1', 'the live version is untouched');
  await deploy(repo, 'dp_3', 'v3', 4);
  t.is(repo.lastError(), null);
});

test('pruned versions are removed with an event; a redeploy of the active bundle folds into its record', async (t) => {
  const { repo, path } = await opened();
  await deploy(repo, 'dp_1', 'v1', 1);
  await deploy(repo, 'dp_2', 'v2', 2);
  await repo.markRemoved(new Set(['dp_1']), at(3));
  t.like(repo.record('dp_1'), { status: 'removed' });
  t.is(repo.status().events[0].kind, 'removed');

  const again = newDeploymentRecord('dp_again', null, 'https://bundles.test/v2.zip', { origin: 'api', pin: null, label: 'same' }, at(4));
  await repo.insert(again);
  const folded = repo.redeployTarget(again, 'sha-v2', () => true);
  t.like(folded, { targetId: 'dp_2', outcome: 'unchanged' });
  await repo.foldRedeploy(again, 'sha-v2', folded!, at(4));
  t.is(repo.record('dp_again')?.id, 'dp_2', 'the folded id answers with the kept record');
  t.like(repo.record('dp_2'), { label: 'same', status: 'active' });
  t.deepEqual((await onDisk(path)).merged, { dp_again: 'dp_2' });
});

test('after a crash: a running deployment fails, a broken active version is removed and leaves none active', async (t) => {
  const { repo, path } = await opened();
  await deploy(repo, 'dp_1', 'v1', 1);
  await repo.insert(newDeploymentRecord('dp_2', null, 'https://bundles.test/v2.zip', { origin: 'api', pin: null }, at(2)));
  await repo.recoverAfterRestart(at(5), [{ id: 'dp_1', reason: 'stored version v1 could not be loaded: ENOENT' }]);
  const data = await onDisk(path);
  t.is(data.activeId, null);
  t.like(
    data.deployments.find((r) => r.id === 'dp_2'),
    { status: 'failed', error: 'interrupted by a restart', finishedAt: at(5) },
  );
  t.like(
    data.deployments.find((r) => r.id === 'dp_1'),
    { status: 'removed' },
  );
  t.is(data.lastError?.reason, 'stored version v1 could not be loaded: ENOENT');
});
