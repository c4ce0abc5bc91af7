import test from 'ava';
import { readFile, stat } from 'node:fs/promises';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { featureAssets } from '../../../src/render/components/featureAssets.js';

const assetsDir = fileURLToPath(new URL('../../../src/render/components/assets/', import.meta.url));

test('katex ships its stylesheet and every font file it references, all under _assets/', async (t) => {
  const assets = featureAssets('katex');
  const css = assets.find((a) => a.target === '_assets/katex/katex.min.css');
  t.truthy(css);
  const text = await readFile(css!.source, 'utf8');
  const referenced = [...text.matchAll(/url\(([^)]+)\)/g)].map((m) => `_assets/katex/${m[1].replace(/['"]/g, '')}`);
  t.true(referenced.length >= 20);
  const targets = new Set(assets.map((a) => a.target));
  for (const r of referenced) t.true(targets.has(r), r);
  for (const a of assets) {
    t.true((await stat(a.source)).isFile(), a.source);
    t.regex(a.target, /^_assets\//);
  }
});

test('mermaid ships the browser build; openapi ships only the "Try it" playground, a classic script', async (t) => {
  const [mermaid] = featureAssets('mermaid');
  t.is(mermaid.target, '_assets/mermaid/mermaid.min.js');
  t.true((await stat(mermaid.source)).size > 100_000);
  const openapi = featureAssets('openapi');
  t.deepEqual(
    openapi.map((a) => a.target),
    ['_assets/openapi/playground.js'],
  );
  const script = await readFile(openapi[0].source, 'utf8');
  t.notThrows(() => new vm.Script(script), 'parses as a classic script (no import/export)');
  t.notRegex(script, /https?:\/\/[\w.-]/, 'names no origin of its own');
});

test('components.js is a classic script and the stylesheet never points at another origin', async (t) => {
  const js = await readFile(`${assetsDir}components.js`, 'utf8');
  t.notThrows(() => new vm.Script(js, { filename: 'components.js' }), 'parses as a classic (non-module) script');
  t.notRegex(js, /^\s*(import|export)\s/m);
  t.notRegex(js, /https?:\/\//);
  const css = await readFile(`${assetsDir}components.css`, 'utf8');
  t.notRegex(css, /url\(|@import|https?:\/\//);
});
