import test from 'ava';
import { SiteLanguageMemory } from '../../src/features/exports/worker/SiteLanguageMemory.js';

test('before any export every configured site is read for its languages', (t) => {
  const memory = new SiteLanguageMemory();
  t.deepEqual(memory.planFor(['/docs/a', '/docs/b']), { languages: [], unscanned: ['/docs/a', '/docs/b'] });
});

test("the latest export's languages come first; sites exported are no longer read; others still are", (t) => {
  const memory = new SiteLanguageMemory();
  memory.remember('/docs/a', ['python']);
  memory.remember('/docs/b', ['rust', 'toml']);
  t.deepEqual(memory.planFor(['/docs/a', '/docs/b', '/docs/c']), { languages: ['rust', 'toml', 'python'], unscanned: ['/docs/c'] });
  // Exporting a again makes it the latest, with what this export found.
  memory.remember('/docs/a', ['python', 'go']);
  t.deepEqual(memory.planFor(['/docs/a', '/docs/b']).languages, ['python', 'go', 'rust', 'toml']);
});

test('a site no longer configured is not warmed for', (t) => {
  const memory = new SiteLanguageMemory();
  memory.remember('/docs/gone', ['haskell']);
  memory.remember('/docs/a', ['python']);
  t.deepEqual(memory.planFor(['/docs/a']), { languages: ['python'], unscanned: [] });
});
