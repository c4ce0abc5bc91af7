import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { renderedCorpus } from './assistant/renderedCorpus.js';
import { serveBenchAppliance } from './assistant/serveBenchAppliance.js';
import { printTable } from './runAutocannon.js';
import { runSteadyLoad } from './runSteadyLoad.js';

const here = fileURLToPath(import.meta.url);
const argValue = (flag: string) => process.argv[process.argv.indexOf(flag) + 1];
const SECONDS = Number(process.argv.includes('--seconds') ? argValue('--seconds') : 20);
const RATE = 50;
const DOMAIN = 'mcp.eval.internal';

if (process.argv[2] === '--serve') await serve(process.argv[3], process.argv[4]);
else if (process.argv[2] === '--memory') await memory(process.argv[3]);
else await main();

/** Child: an appliance serving the export in `out` as DOMAIN; prints its URL and an assistant key. */
function serve(out: string, source: string): Promise<void> {
  return serveBenchAppliance(out, {
    sites: [{ domain: DOMAIN, source }],
    assistant: { searchPerKeyPerMinute: 1e6, searchPerAddressPerMinute: 1e6 },
  });
}

/** Child: builds the index of `out`'s chunk file and reports what it holds. */
async function memory(out: string): Promise<void> {
  const { buildSectionIndex } = await import('../src/features/assistant/retrieval/buildSectionIndex.js');
  const gc = (globalThis as { gc?: () => void }).gc!;
  const used = () => {
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = used();
  const started = performance.now();
  const index = await buildSectionIndex(join(out, '_enclave', 'sections.jsonl'), 1 << 30);
  const ms = performance.now() - started;
  const held = used() - before;
  process.stdout.write(
    JSON.stringify({
      sections: index.parts.sectionPage.length,
      pages: index.parts.pages.length,
      mb: held / 1048576,
      ms,
      rssMb: process.memoryUsage().rss / 1048576,
    }),
  );
}

async function main(): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const mcpSource = resolve('../shared/corpora/mcp');
  const mcp = await renderedCorpus('mcp', mcpSource, log);
  const synthSource = join(tmpdir(), 'enclave-bench-synthetic-10000');
  if (!existsSync(join(synthSource, 'docs.json')))
    execFileSync(process.execPath, [resolve('../shared/bin/gen-corpus.mjs'), synthSource, '10000'], { stdio: 'ignore' });
  const synthetic = await renderedCorpus('synthetic-10000', synthSource, log);

  const questions = (
    JSON.parse(readFileSync(resolve('bench/assistant/questions.json'), 'utf8')) as { questions: { corpus: string; question: string }[] }
  ).questions;
  const bodies = questions.filter((q) => q.corpus === 'mcp').map((q) => JSON.stringify({ query: q.question, pageSize: 10 }));
  const child = spawn(process.execPath, ['--import', 'tsx', here, '--serve', mcp, mcpSource], { stdio: ['pipe', 'pipe', 'inherit'] });
  const first = await new Promise<string>((ok) => createInterface({ input: child.stdout! }).once('line', ok));
  const { url, key } = JSON.parse(first) as { url: string; key: string };
  const load0 = loadavg()[0];
  // A short warm-up builds the index and lets the JIT settle; not measured.
  await runSteadyLoad({
    url: `${url}/v1/search/${DOMAIN}`,
    seconds: 3,
    rate: RATE,
    method: 'POST',
    bodies,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
  });
  const r = await runSteadyLoad({
    url: `${url}/v1/search/${DOMAIN}`,
    seconds: SECONDS,
    rate: RATE,
    method: 'POST',
    bodies,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
  });
  // The floor on this machine right now: the cheapest route of the same server at the same rate.
  const floor = await runSteadyLoad({ url: `${url}/_enclave/health`, seconds: SECONDS, rate: RATE });
  child.stdin!.end('stop\n');
  console.log(
    `mcp corpus export on a real appliance, ${RATE} req/s for ${SECONDS} s each, ${bodies.length} questions in turn (load average ${load0.toFixed(1)}):`,
  );
  printTable(
    ['request', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx'],
    [
      ['POST /v1/search (pageSize 10)', r.rps.toFixed(1), r.p50, r.p99, r.errors, r.non2xx],
      ['GET /_enclave/health (floor)', floor.rps.toFixed(1), floor.p50, floor.p99, floor.errors, floor.non2xx],
    ],
  );

  const rows: (string | number)[][] = [];
  for (const [name, out] of [
    ['mcp', mcp],
    ['synthetic 10,000 pages', synthetic],
  ]) {
    const m = JSON.parse(
      execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', here, '--memory', out], { encoding: 'utf8' }),
    ) as Record<string, number>;
    rows.push([name, m.pages, m.sections, m.mb.toFixed(1), Math.round(m.ms)]);
  }
  console.log('\nSection index of one deployed version (heap + array buffers held after GC):');
  printTable(['corpus', 'pages', 'sections', 'index MB', 'build ms'], rows);
}
