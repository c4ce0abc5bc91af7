import test from 'ava';
import { cruise, type IModule } from 'dependency-cruiser';
import { preloadRenderer, prepareRenderer } from '../../src/render/index.js';

/** Modules loaded when `entry` is imported: its static, non-type imports, followed (no node_modules). */
async function loadedWith(entry: string): Promise<Set<string>> {
  const result = await cruise([entry], {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  });
  const modules = new Map<string, IModule>();
  for (const m of typeof result.output === 'string' ? [] : result.output.modules) modules.set(m.source, m);
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const source = stack.pop()!;
    if (seen.has(source)) continue;
    seen.add(source);
    for (const dep of modules.get(source)?.dependencies ?? [])
      if (!dep.dynamic && !dep.dependencyTypes.includes('type-only')) stack.push(dep.resolved);
  }
  return seen;
}

test("importing render/'s front door loads none of the renderer: the server imports it to check and hash sources", async (t) => {
  const loaded = await loadedWith('src/render/index.ts');
  t.true(loaded.has('src/render/source/checkDocsSource.ts'), 'the light parts are there');
  t.true(loaded.has('src/render/hashDocsSource.ts'));
  const heavy = [...loaded].filter((m) => m === 'src/render/renderSite.ts' || /\/code\/|\/mdx\/|shiki|micromark|unocss/.test(m));
  t.deepEqual(heavy, [], 'renderSite and the highlighter load on first use only');
});

test('a preparation that is stopped before it starts does no work and starts no tokenizer thread', async (t) => {
  const stopped = new AbortController();
  stopped.abort();
  const prepared = prepareRenderer({ languages: ['ts', 'python'], sources: [], signal: stopped.signal });
  const warmed = await prepared.warmed;
  t.deepEqual(warmed, { loaded: [], compiled: [], practiced: 0 });
  t.is(prepared.codeThread(), undefined);
  await prepared.close();
});

test('preloading twice is harmless (the worker preloads at start, the preparation again)', async (t) => {
  await preloadRenderer();
  await t.notThrowsAsync(preloadRenderer());
});
