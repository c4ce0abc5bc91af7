/**
 * Highlighting benchmark: every fenced code block of the given docs folders, cold (empty
 * cache) then warm (a new process reading the cache a previous run wrote).
 * Run: npx tsx test/render/components/benchHighlight.ts /tmp/syn1000 /work/shared/corpora/mcp
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCodeHighlighter } from '../../../src/render/code/createCodeHighlighter.js';
import type { CodeBlockInput } from '../../../src/render/types.js';
import { fakeRenderContext } from './fakeRenderContext.js';

/** Fenced blocks of every .mdx/.md file under a folder (a regex is enough for a benchmark). */
function codeBlocks(dir: string): CodeBlockInput[] {
  const out: CodeBlockInput[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.mdx?$/.test(p)) {
        for (const m of readFileSync(p, 'utf8').matchAll(/^[ \t]*```([\w+#.-]*)[ \t]*([^\n]*)\n([\s\S]*?)\n[ \t]*```/gm)) {
          out.push({ lang: m[1] || null, meta: m[2] || null, value: m[3] });
        }
      }
    }
  };
  walk(dir);
  return out;
}

async function runPhase(dir: string, cacheDir: string): Promise<void> {
  const blocks = codeBlocks(dir);
  const t0 = performance.now();
  const h = await createCodeHighlighter({ cacheDir });
  const t1 = performance.now();
  const ctx = fakeRenderContext();
  for (const b of blocks) h.highlight(b, ctx);
  h.flush();
  const t2 = performance.now();
  const s = h.stats();
  process.stdout.write(
    `${JSON.stringify({
      blocks: blocks.length,
      chars: blocks.reduce((n, b) => n + b.value.length, 0),
      initMs: t1 - t0,
      highlightMs: t2 - t1,
      ...s,
    })}\n`,
  );
}

const args = process.argv.slice(2);
if (args[0] === '--phase') {
  await runPhase(args[1], args[2]);
} else {
  const self = fileURLToPath(import.meta.url);
  const rows: string[] = [
    '| corpus | blocks | chars | phase | init ms | highlight ms | per block ms | cache hits/misses |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const dir of args) {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'enclave-hl-bench-'));
    for (const phase of ['cold', 'warm']) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', self, '--phase', dir, cacheDir], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      const j = JSON.parse(r.stdout.trim().split('\n').pop() as string) as {
        blocks: number;
        chars: number;
        initMs: number;
        highlightMs: number;
        hits: number;
        misses: number;
      };
      rows.push(
        `| ${dir} | ${j.blocks} | ${j.chars} | ${phase} | ${j.initMs.toFixed(0)} | ${j.highlightMs.toFixed(0)} | ${(j.highlightMs / Math.max(1, j.blocks)).toFixed(3)} | ${j.hits}/${j.misses} |`,
      );
    }
    rmSync(cacheDir, { recursive: true, force: true });
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}
