import { readFile } from 'node:fs/promises';
import { dirname, resolve, relative, isAbsolute } from 'node:path';

/** Bounded so a `$ref` cycle or absurd nesting can't hang or exhaust the renderer. */
const MAX_DEPTH = 32;

/**
 * Reads a JSON file and replaces every `{"$ref": "./other.json", …}` object with the referenced
 * file's content (sibling keys override it), resolving nested refs relative to the file that
 * holds them. Refs must stay inside `rootDir`.
 */
export async function readJsonWithRefs(file: string, rootDir: string): Promise<unknown> {
  return load(file, rootDir, [], 0);
}

async function load(file: string, rootDir: string, stack: string[], depth: number): Promise<unknown> {
  if (stack.includes(file)) throw new Error(`$ref cycle: ${[...stack, file].map((f) => relative(rootDir, f)).join(' -> ')}`);
  if (depth > MAX_DEPTH) throw new Error(`$ref nesting deeper than ${MAX_DEPTH} at ${relative(rootDir, file)}`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${relative(rootDir, file) || file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new Error(`${relative(rootDir, file)} is not valid JSON: ${(err as Error).message}`);
  }
  return expand(data, file, rootDir, [...stack, file], depth);
}

async function expand(value: unknown, file: string, rootDir: string, stack: string[], depth: number): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((v) => expand(v, file, rootDir, stack, depth)));
  if (!value || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (typeof obj.$ref === 'string') {
    // A leading slash means "from the docs root", as for page paths.
    const target = obj.$ref.startsWith('/') ? resolve(rootDir, obj.$ref.slice(1)) : resolve(dirname(file), obj.$ref);
    const inside = relative(rootDir, target);
    if (inside.startsWith('..') || isAbsolute(inside)) throw new Error(`$ref ${obj.$ref} points outside the docs folder`);
    const loaded = await load(target, rootDir, stack, depth + 1);
    if (loaded && typeof loaded === 'object' && !Array.isArray(loaded)) Object.assign(out, loaded);
    else if (Object.keys(obj).length === 1) return loaded;
  }
  for (const [k, v] of Object.entries(obj)) {
    if (k === '$ref' && typeof v === 'string') continue;
    out[k] = await expand(v, file, rootDir, stack, depth);
  }
  return out;
}
