import { createShikiTokenizer } from './createShikiTokenizer.js';

/**
 * Short, ordinary programs in the languages docs sites fence most (counted over real-world
 * sites: json, bash, python and typescript lead by far; javascript and yaml are close behind in
 * Mintlify sites). Tokenizing one makes the regex engine compile the grammar states almost every
 * block of that language goes through; otherwise the first page that uses the language pays a
 * few hundred milliseconds for it, a visible share of a small site's export.
 */
export const WARM_UP_SAMPLES: readonly (readonly [lang: string, code: string])[] = [
  [
    'json',
    '{ "id": "item_1", "count": 2, "ratio": -0.5e2, "tags": ["a", "b"], "active": true, "parent": null, "meta": { "note": "x\\ty" } }',
  ],
  [
    'bash',
    [
      '# install and run',
      'npm install --save my-package && export API_KEY="$(cat key.txt)"',
      'curl -X POST "https://api.example.com/v1/items" -H "Authorization: Bearer $API_KEY" -d \'{"name": "x"}\'',
      'for f in *.md; do echo "${f%.md}" | grep -q draft || cp "$f" out/; done',
      'if [ -z "$HOME" ]; then exit 1; fi',
    ].join('\n'),
  ],
  [
    'python',
    [
      'import os',
      'from typing import Optional',
      '',
      '@dataclass',
      'class Client(Base):',
      '    """Talks to the service."""',
      '    def __init__(self, key: Optional[str] = None, *args, **kwargs) -> None:',
      '        self.key = key or os.environ["API_KEY"]  # fallback',
      '',
      '    async def fetch(self, item_id: int) -> dict:',
      '        result = await self._get(f"/items/{item_id}", params={"limit": 10, "ok": True})',
      '        return [x for x in result if x is not None][0] if result else {}',
    ].join('\n'),
  ],
  [
    'typescript',
    [
      "import { readFile } from 'node:fs/promises';",
      'export interface Options { name: string; retries?: number; mode: "a" | "b" }',
      'type Handler<T> = (input: T) => Promise<void>;',
      'export const defaults: Options = { name: `item-${Date.now()}`, retries: 3, mode: "a" };',
      'export async function run(path: string, opts: Partial<Options> = {}): Promise<number> {',
      '  // read and count lines',
      '  const text = await readFile(path, "utf8");',
      '  for (const line of text.split("\\n")) if (line.length > 80) throw new Error(`too long: ${line}`);',
      '  return text.split(/\\r?\\n/).length + (opts.retries ?? 0);',
      '}',
      'class Store<K, V> extends Map<K, V> implements Iterable<[K, V]> { private readonly limit = 10; }',
    ].join('\n'),
  ],
  [
    'javascript',
    [
      "const client = require('my-client');",
      'export default async function handler(req, res) {',
      '  const { id = 0, ...rest } = req.query; // defaults',
      '  const items = await client.list({ id, limit: 10 }).then((r) => r.items.filter(Boolean));',
      '  res.status(200).json({ items, total: items.length, at: new Date().toISOString(), re: /a+b/g });',
      '}',
    ].join('\n'),
  ],
  [
    'yaml',
    [
      '# settings',
      'name: my-service',
      'version: 1.2.0',
      'enabled: true',
      'servers:',
      '  - url: "https://api.example.com"',
      '    timeout: 30',
      'env: { KEY: value, OTHER: ~ }',
      'script: |',
      '  echo hello',
    ].join('\n'),
  ],
];

/**
 * Sites with more fence languages than this only get their grammars loaded, not compiled ahead:
 * their grammars already take a lot of memory, and compiled regexes live in WebAssembly memory,
 * which never shrinks. On a re-export that finds everything in the highlight cache, compiling
 * ahead would raise a large site's worker peak for nothing.
 */
export const MAX_LANGUAGES_TO_COMPILE = 8;

/**
 * How long a warm-up keeps tokenizing its samples once their grammars are compiled. The first
 * thousand lines of a grammar tokenize several times slower than later ones (V8 optimises the
 * tokenizer's JavaScript and moves the regex engine's WebAssembly to its optimising tier as they
 * run hot), so practice while idle takes that slow start off the next job.
 */
const PRACTICE_MS = 1000;

/** Grammars a warm-up loaded, those of them it also compiled with a sample (language ids), and its rounds of practice. */
export interface WarmUpResult {
  loaded: string[];
  compiled: string[];
  practiced: number;
}

/**
 * Loads the grammars of `languages` (fence names, as a site uses them) and, for a site with few
 * languages, tokenizes the sample of each that has one, then keeps tokenizing those samples for
 * PRACTICE_MS, while a worker has nothing else to do. One language (or one round of
 * practice) at a time, each after a turn of the event loop, and nothing once `shouldStop` says a
 * job has arrived: warming up never delays a job by more than one language or round.
 * `loadOnly`: only load the grammars (a thread whose tokenizing another thread does).
 */
export async function warmUpHighlighter(
  languages: readonly string[],
  shouldStop: () => boolean,
  opts: { loadOnly?: boolean } = {},
): Promise<WarmUpResult> {
  // Practice lines never come back: remembering them would only fill the heap.
  const tokenizer = await createShikiTokenizer([], { rememberLines: false });
  const samples = new Map(WARM_UP_SAMPLES.map(([lang, code]) => [tokenizer.resolve(lang), code]));
  const ids = new Set(languages.map((lang) => tokenizer.resolve(lang)).filter((id): id is string => id !== null));
  const compile = !opts.loadOnly && ids.size <= MAX_LANGUAGES_TO_COMPILE;
  const done: WarmUpResult = { loaded: [], compiled: [], practiced: 0 };
  for (const id of ids) {
    await new Promise((resolve) => setImmediate(resolve));
    if (shouldStop()) break;
    await tokenizer.load([id]);
    done.loaded.push(id);
    const sample = samples.get(id);
    if (!compile || sample === undefined || shouldStop()) continue;
    tokenizer.tokenize(sample, id);
    done.compiled.push(id);
  }
  const practice = done.compiled.map((id) => [id, samples.get(id)!] as const);
  const until = performance.now() + PRACTICE_MS;
  while (practice.length && performance.now() < until) {
    await new Promise((resolve) => setImmediate(resolve));
    if (shouldStop()) break;
    for (const [id, sample] of practice) tokenizer.tokenize(sample, id);
    done.practiced++;
  }
  return done;
}
