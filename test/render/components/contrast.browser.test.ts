import test from 'ava';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { toHtml } from 'hast-util-to-html';
import { chromium } from 'playwright-core';
import type { ElementContent } from '../../../src/render/types.js';
import { builtInComponents } from '../../../src/render/components/index.js';
import { createCodeHighlighter } from '../../../src/render/code/createCodeHighlighter.js';
import { fakeRenderContext } from './fakeRenderContext.js';

const CHROMIUM = '/usr/bin/chromium';
const assetsDir = fileURLToPath(new URL('../../../src/render/components/assets/', import.meta.url));

// Plausible theme values; the theme owns the real ones, these stand in for them.
const THEME = `:root{--enclave-primary:#0d9373;--enclave-bg:#ffffff;--enclave-fg:#111827;--enclave-muted:#4b5563;--enclave-border:#e5e7eb;--enclave-code-bg:#f6f8fa}
html[data-theme=dark]{--enclave-bg:#0b0d12;--enclave-fg:#e5e7eb;--enclave-muted:#9ca3af;--enclave-border:#374151;--enclave-code-bg:#161b22}
body{background:var(--enclave-bg);color:var(--enclave-fg)}`;

// Runs in the page; kept as source text because the TS loader adds helpers a page can't see.
const MEASURE = `(() => {
      // Resolve any CSS colour (incl. color-mix) to sRGB by painting it on a 1px canvas.
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 1;
      const g = canvas.getContext('2d', { willReadFrequently: true });
      const rgba = (css) => {
        g.clearRect(0, 0, 1, 1);
        g.fillStyle = '#000';
        g.fillStyle = css;
        g.fillRect(0, 0, 1, 1);
        const d = g.getImageData(0, 0, 1, 1).data;
        return [d[0], d[1], d[2], d[3] / 255];
      };
      const over = (top, below) => top.slice(0, 3).map((v, i) => v * top[3] + below[i] * (1 - top[3]));
      const background = (el) => {
        const layers = [];
        for (let n = el; n; n = n.parentElement) {
          const c = rgba(getComputedStyle(n).backgroundColor);
          if (c[3] > 0) layers.push(c);
          if (c[3] === 1) break;
        }
        return layers.reduceRight((acc, layer) => over(layer, acc), [255, 255, 255]);
      };
      const lum = (c) => {
        const [r, g2, b] = c.map((v) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g2 + 0.0722 * b;
      };
      const out = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!(node.textContent || '').trim() || el.closest('[hidden], details:not([open]) > :not(summary)')) continue;
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden' || style.display === 'none' || el.getClientRects().length === 0) continue;
        const bg = background(el);
        const fg = over(rgba(style.color), bg);
        const [l1, l2] = [lum(fg), lum(bg)].sort((a, b) => b - a);
        const ratio = (l1 + 0.05) / (l2 + 0.05);
        // Dimmed disabled badges are exempt (WCAG excludes inactive components).
        if (ratio < 4.5 && !el.closest('.disabled')) out.push(\`\${ratio.toFixed(2)} "\${node.textContent.trim().slice(0, 20)}" in .\${el.className}\`);
      }
      return out;
})()`;

(existsSync(CHROMIUM) ? test : test.skip)('text in components keeps 4.5:1 contrast in light and dark themes', async (t) => {
  const h = await createCodeHighlighter({});
  const ctx = fakeRenderContext();
  const txt = (v: string): ElementContent => ({ type: 'text', value: v });
  const c = (name: string, props: Record<string, unknown>, children: ElementContent[] = [txt('Body text')]) =>
    builtInComponents[name](props, children, ctx) as ElementContent;
  const code = `// comment\nimport { a } from "b";\nconst x = 42; // [!code ++]\nfunction f(p: string) { return \`t\${p}\`; }\nclass K extends Base {}`;
  const nodes: ElementContent[] = [
    h.highlight({ lang: 'ts', meta: 'file.ts {2}', value: code }, ctx),
    h.highlight({ lang: 'python', meta: null, value: 'def f(x):\n    """doc"""\n    return None  # c' }, ctx),
    h.highlight({ lang: 'diff', meta: null, value: '-a\n+b' }, ctx),
    ...['Note', 'Tip', 'Info', 'Warning', 'Check', 'Danger'].map((n) => c(n, {})),
    ...['gray', 'blue', 'green', 'yellow', 'orange', 'red', 'purple', 'white'].map((color) => c('Badge', { color }, [txt(color)])),
    c('ParamField', { query: 'q', type: 'string', required: true, default: 'x', deprecated: true }),
    c('Card', { title: 'Card', href: '/x', cta: 'Go' }),
    c('Accordion', { title: 'Acc', description: 'desc', defaultOpen: true }),
    c('Update', { label: 'v1', description: 'd', tags: ['t'] }),
    c('Steps', {}, [c('Step', { title: 'S' })]),
    c('Frame', { caption: 'cap' }),
    c('Tabs', {}, [c('Tab', { title: 'One' }), c('Tab', { title: 'Two' })]),
    c('Prompt', { description: 'P' }),
    c('GitHub.Repo', { repo: 'acme/kit', description: 'A kit' }, []),
    c('FileTree', { items: ['a.txt', { name: 'src', note: 'sources', items: ['b.ts'] }] }, []),
  ];
  const dir = await mkdtemp(path.join(tmpdir(), 'enclave-contrast-'));
  await copyFile(`${assetsDir}components.css`, path.join(dir, 'components.css'));
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><style>${THEME}</style><link rel="stylesheet" href="components.css"></head><body>${nodes.map((n) => toHtml(n as never)).join('')}</body></html>`,
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  await page.goto(pathToFileURL(path.join(dir, 'index.html')).href);
  for (const theme of ['light', 'dark']) {
    await page.evaluate((th) => document.documentElement.setAttribute('data-theme', th), theme);
    const failures = (await page.evaluate(MEASURE)) as string[];
    t.deepEqual(failures, [], `${theme} theme`);
  }
});
