import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { DataDirLock, DataDirLockedError } from '../../src/platform/store/DataDirLock.js';
import { makeTempDir } from '../helpers/testAppliance.js';

/** The pids of this process's `flock` children holding `path` (read from /proc, Linux). */
function flockHolders(path: string): number[] {
  const children = readdirSync(`/proc/${process.pid}/task`).flatMap((tid) =>
    readFileSync(`/proc/${process.pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  );
  return children.filter((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return argv[0] === 'flock' && argv.includes(path);
    } catch {
      return false;
    }
  });
}

test('one holder at a time; release lets the next one in at once; the file stays and names the holder', async (t) => {
  const dir = await makeTempDir('enclave-lock-');
  const lock = await DataDirLock.acquire(dir);
  lock.advertise('http://127.0.0.1:1234');
  const refused = await t.throwsAsync(DataDirLock.acquire(dir), { instanceOf: DataDirLockedError });
  t.like(refused, { pid: process.pid, url: 'http://127.0.0.1:1234' });
  t.deepEqual(await DataDirLock.owner(dir), { pid: process.pid, url: 'http://127.0.0.1:1234' });
  await lock.release();
  t.is(await DataDirLock.owner(dir), null);
  t.is(await readFile(join(dir, 'enclave.lock'), 'utf8'), '', 'kept, emptied: the locked inode is never replaced');
  const again = await DataDirLock.acquire(dir);
  await again.release();
});

test('a lock whose holder process is killed is reported lost and is free again', async (t) => {
  const dir = await makeTempDir('enclave-lock-');
  const lock = await DataDirLock.acquire(dir);
  const lost = new Promise<void>((resolve) => lock.onLost(resolve));
  const [holder] = flockHolders(join(dir, 'enclave.lock'));
  t.truthy(holder, 'a flock child holds it');
  // The lock's child is unref'd, so nothing else keeps this process's event loop alive while
  // the kill is reaped: a ref'd timer does, and bounds the wait.
  let guard: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (guard = setTimeout(resolve, 10_000, 'timeout')));
  process.kill(holder, 'SIGKILL');
  t.not(await Promise.race([lost, timedOut]), 'timeout', 'the loss is reported');
  clearTimeout(guard);
  // flock's own child (cat) may outlive it for a moment and still hold the lock: wait for it.
  for (let i = 0; i < 100 && (await DataDirLock.owner(dir)); i++) await new Promise((r) => setTimeout(r, 50));
  const next = await DataDirLock.acquire(dir);
  await next.release();
  await lock.release();
  t.pass();
});
