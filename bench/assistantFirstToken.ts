import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startOpenAiStandIn } from '../test/helpers/openAiStandIn.js';
import { renderedCorpus } from './assistant/renderedCorpus.js';
import { serveBenchAppliance } from './assistant/serveBenchAppliance.js';
import { printTable } from './runAutocannon.js';

const here = fileURLToPath(import.meta.url);
const argValue = (flag: string, fallback: number) =>
  process.argv.includes(flag) ? Number(process.argv[process.argv.indexOf(flag) + 1]) : fallback;
const SECONDS = argValue('--seconds', 5);
const RATE = argValue('--rate', 10);
const DOMAIN = 'mcp.eval.internal';

if (process.argv[2] === '--serve') await serve(process.argv[3]!, process.argv[4]!, process.argv[5]!, process.argv[6] === 'hybrid');
else await main();

/** Child: an appliance answering through the stand-in at `model`, serving `out` as DOMAIN; prints its URL and a key. */
function serve(out: string, source: string, model: string, hybrid: boolean): Promise<void> {
  const many = 1e6;
  const overrides = {
    sites: [{ domain: DOMAIN, source }],
    assistant: {
      enabled: true,
      endpoint: model,
      embeddingModel: hybrid ? 'stand-in-embed' : null,
      messagesPerKeyPerMinute: many,
      messagesPerAddressPerMinute: many,
      messagesGlobalPerMinute: many,
    },
  };
  return serveBenchAppliance(out, overrides, async (app) => {
    if (hybrid && !(await app.features.assistant.retriever.vectorsSettled(DOMAIN))) throw new Error('sections not embedded');
  });
}

/** Sends `count` messages at RATE, each tagged; resolves to the send→upstream times in ms, and failures. */
async function measure(url: string, key: string, questions: string[], arrivals: Map<string, number>, count: number) {
  const sent = new Map<string, number>();
  let failures = 0;
  const exchanges: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const tag = `m${i}x`;
    const content = `${questions[i % questions.length]} ${tag}`;
    exchanges.push(
      (async () => {
        sent.set(tag, performance.now());
        const res = await fetch(`${url}/v1/assistant/${DOMAIN}/message`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ fp: 'bench', messages: [{ role: 'user', content }] }),
        });
        await res.text();
        if (!res.ok) failures++;
      })().catch(() => {
        failures++;
      }),
    );
    await new Promise((r) => setTimeout(r, 1000 / RATE));
  }
  await Promise.all(exchanges);
  const ms = [...sent].flatMap(([tag, t0]) => (arrivals.has(tag) ? [arrivals.get(tag)! - t0] : []));
  return { ms: ms.sort((a, b) => a - b), failures: failures + (count - ms.length) };
}

async function main(): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const mcpSource = resolve('../shared/corpora/mcp');
  const mcp = await renderedCorpus('mcp', mcpSource, log);
  const questions = (
    JSON.parse(readFileSync(resolve('bench/assistant/questions.json'), 'utf8')) as { questions: { corpus: string; question: string }[] }
  ).questions
    .filter((q) => q.corpus === 'mcp')
    .map((q) => q.question);
  const standIn = await startOpenAiStandIn();
  const arrivals = new Map<string, number>();
  standIn.fallback = (body) => {
    const messages = body.messages as { role: string; content: string }[];
    const tag = /\b(m\d+x)\b/.exec(messages.at(-1)?.content ?? '')?.[1];
    if (tag) arrivals.set(tag, performance.now());
    return { deltas: ['ok'] };
  };
  const rows: (string | number)[][] = [];
  const load0 = loadavg()[0]!;
  for (const mode of ['keyword', 'hybrid'] as const) {
    const child = spawn(process.execPath, ['--import', 'tsx', here, '--serve', mcp, mcpSource, standIn.url, mode], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const first = await new Promise<string>((ok) => createInterface({ input: child.stdout! }).once('line', ok));
    const { url, key } = JSON.parse(first) as { url: string; key: string };
    await measure(url, key, questions, new Map(), RATE * 2); // warm-up: index load, JIT; not measured
    const r = await measure(url, key, questions, arrivals, RATE * SECONDS);
    child.stdin!.end('stop\n');
    const at = (p: number) => r.ms[Math.min(r.ms.length - 1, Math.floor(p * r.ms.length))]!.toFixed(1);
    rows.push([mode, r.ms.length, at(0.5), at(0.99), r.ms.at(-1)!.toFixed(1), r.failures]);
  }
  await standIn.close();
  console.log(
    `mcp corpus export on a real appliance, ${RATE} messages/s for ${SECONDS} s per mode, ${questions.length} questions in turn (load average ${load0.toFixed(1)}):`,
  );
  printTable(['ranking', 'messages', 'p50 ms', 'p99 ms', 'max ms', 'failed'], rows);
}
