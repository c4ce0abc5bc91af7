#!/usr/bin/env node
// tsc compiles only TypeScript: copy every other file under src/ (theme CSS/JS, feedback widget,
// templates) into dist/ at the same relative path, so the compiled build finds its assets.
import { cpSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');
const dist = join(root, 'dist');
let copied = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (!name.endsWith('.ts')) {
      cpSync(path, join(dist, relative(src, path)));
      copied++;
    }
  }
}
walk(src);
console.log(`copied ${copied} asset file(s) to dist/`);
