import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { builtInComponents } from '../../../src/render/components/index.js';
import { sharedPath } from '../../helpers/sharedDir.js';

// The corpora half of components.unit.test.ts: it reads ../shared, so it is an int test.

test('every built-in component the corpora use is implemented', async (t) => {
  const specList = [
    'Note',
    'Tip',
    'Info',
    'Warning',
    'Check',
    'Danger',
    'Callout',
    'Card',
    'CardGroup',
    'Columns',
    'Tabs',
    'Tab',
    'CodeGroup',
    'Accordion',
    'AccordionGroup',
    'Steps',
    'Step',
    'Frame',
    'ParamField',
    'ResponseField',
    'Expandable',
    'RequestExample',
    'ResponseExample',
    'Icon',
    'Tooltip',
    'Update',
    'Badge',
    'Tree',
    'Tree.Folder',
    'Tree.File',
    'Mermaid',
    'Latex',
    'Panel',
    'Banner',
    'Color',
    'Color.Item',
    'Color.Row',
    'Prompt',
    'Tile',
    'View',
  ];
  for (const name of specList) t.truthy(builtInComponents[name], name);
  const used = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(p);
      else if (p.endsWith('.mdx')) for (const m of (await readFile(p, 'utf8')).matchAll(/<([A-Z][A-Za-z.]*)/g)) used.add(m[1]);
    }
  };
  await walk(sharedPath('corpora'));
  const missing = specList.filter((n) => used.has(n) && !builtInComponents[n]);
  t.deepEqual(missing, []);
  t.true(used.has('Steps') && used.has('CodeGroup'), 'the corpora were actually scanned');
});
