import test from 'ava';
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import { FeedbackLog } from '../../src/features/feedback/log/FeedbackLog.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { projectRoot } from '../helpers/spawnAppliance.js';
import { nodeScriptArgs } from '../helpers/nodeScriptArgs.js';

const serverScript = nodeScriptArgs(new URL('./fixtures/feedbackServer.ts', import.meta.url));

function startServer(dataDir: string): Promise<{ url: string; projectId: string; kill: () => Promise<void> }> {
  const child = spawn(process.execPath, [...serverScript, dataDir], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`feedback server did not start\n${err}`));
    }, 30_000);
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = /READY (\S+) (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          projectId: m[2],
          kill: async () => {
            child.kill('SIGKILL');
            return await exited;
          },
        });
      }
    });
    void exited.then(() => reject(new Error(`feedback server exited early\n${err}`)));
  });
}

test('kill -9 during an ingestion burst: every acknowledged id is there after restart (5 rounds)', async (t) => {
  const dataDir = await makeTempDir('enclave-feedback-crash-');
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const acknowledged: string[] = [];
  let projectId = '';
  for (let round = 0; round < 5; round++) {
    const server = await startServer(dataDir);
    projectId = server.projectId;
    let stop = false;
    let failures = 0;
    // 24 clients posting back to back; an answer that isn't 201 (the process died) is not an acknowledgement.
    const clients = Array.from({ length: 24 }, async (_, c) => {
      for (let i = 0; i < 100_000 && !stop; i++) {
        try {
          const res = await fetch(`${server.url}/_enclave/feedback`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({
              source: 'contextual',
              path: '/guides/start',
              helpful: i % 2 === 0,
              comment: `round ${round} client ${c} #${i} ${'x'.repeat((i * 37) % 400)}`,
            }),
          });
          if (res.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
          else await res.body?.cancel();
        } catch {
          failures += 1;
          return;
        }
      }
    });
    // Kill at a random moment once the burst is under way (a loaded machine starts slowly).
    const before = acknowledged.length;
    for (let waited = 0; waited < 15_000 && acknowledged.length - before < 30; waited += 20) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 600)));
    await server.kill();
    stop = true;
    await Promise.all(clients);
    t.log(`round ${round + 1}: ${acknowledged.length} acknowledged so far, ${failures} cut-off requests`);
  }
  const log = await FeedbackLog.open({ dataDir, groupCommitMs: 2, logger: createLogger('silent') });
  t.teardown(() => log.close());
  t.true(acknowledged.length >= 150, 'the burst really ran in every round');
  const stored = new Set<string>();
  // Bounded walk over everything via the same keyset paging the API uses.
  let after = null as { createdAtMs: number; id: string } | null;
  for (let n = 0; n < 10_000; n++) {
    const page = await log.list(projectId, {}, after, 100);
    for (const e of page.entries) stored.add(e.id);
    if (!page.hasMore) break;
    const last = page.entries.at(-1)!;
    after = { createdAtMs: Date.parse(last.createdAt), id: last.id };
  }
  const missing = acknowledged.filter((id) => !stored.has(id));
  t.deepEqual(missing, [], 'no acknowledged entry was lost');
  // And the store still takes appends after all those crashes.
  const entry = await log.append(projectId, { source: 'thumbs_only', path: '/', helpful: true }, new Date());
  t.is((await log.list(projectId, {}, null, 1)).entries[0].id, entry.id);
});
