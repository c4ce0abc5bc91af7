import test from 'ava';
import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { nodeScript } from '../helpers/nodeScriptArgs.js';

const run = promisify(execFile);
// The policy module as this run has it: the .ts through tsx, or its compiled twin (nodeScriptArgs).
const policyScript = nodeScript(new URL('../../src/features/exports/worker/heapGrowthPolicy.ts', import.meta.url));
const policy = pathToFileURL(policyScript.file).href;

/**
 * In a process of its own (the policy changes V8 flags process-wide), with a budget of 40 MiB
 * above the process's RSS at the start: the policy stays generous after a full collection while
 * the process is below it, and tightens after the first one that finds it above.
 */
const script = `
import { heapGrowth, relaxHeapGrowthWhileSmall } from ${JSON.stringify(policy)};
relaxHeapGrowthWhileSmall(process.memoryUsage.rss() + 40 * 2 ** 20);
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
const kept = [];
const fill = (mb) => { for (let i = 0; i < mb * 16; i++) kept.push(new Array(8192).fill(i)); };
fill(8);
gc();
await settle();
const small = heapGrowth.tight;
fill(80);
gc();
await settle();
console.log(JSON.stringify({ small, large: heapGrowth.tight, kept: kept.length }));
`;

test('heap growth is generous while the process is small and V8 default after a full collection finds it above its budget', async (t) => {
  const { stdout } = await run(
    process.execPath,
    [...policyScript.loader, '--expose-gc', '--max-old-space-size=160', '--input-type=module', '-e', script],
    { timeout: 60_000 },
  );
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { small: boolean; large: boolean };
  t.false(result.small, 'still generous with 8 MiB more in use');
  t.true(result.large, 'tight with 88 MiB more in use');
});
