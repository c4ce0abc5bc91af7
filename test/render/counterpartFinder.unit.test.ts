import test from 'ava';
import type { DivisionKind, NavDivision } from '../../src/render/config/SiteConfig.js';
import { createCounterpartFinder } from '../../src/render/nav/createCounterpartFinder.js';

const division = (kind: DivisionKind, label: string, pages: string[], divisions: NavDivision[] = []): NavDivision => ({
  kind,
  label,
  divisions,
  items: [{ kind: 'group', title: label, items: pages.map((path) => ({ kind: 'page' as const, path })) }],
});

test('products: the same page in the other product, else its nearest ancestor page, else nothing', (t) => {
  const api = division('product', 'API', ['api/index', 'api/auth', 'api/auth/tokens', 'api/limits']);
  const sdk = division('product', 'SDK', ['sdk/index', 'sdk/auth']);
  const cli = division('product', 'CLI', ['cli/setup']);
  const root: NavDivision = { kind: 'root', label: '', divisions: [api, sdk, cli], items: [] };
  const find = createCounterpartFinder(root, () => true);
  t.is(find('api/auth', sdk), 'sdk/auth', 'same page');
  t.is(find('api/auth/tokens', sdk), 'sdk/auth', 'nearest ancestor');
  t.is(find('api/limits', sdk), 'sdk/index', 'the product home is the last ancestor');
  t.is(find('api/limits', cli), undefined, 'no ancestor: the caller uses the first page');
  t.is(find('sdk/index', api), 'api/index');
});

test('versions inside a language: folders of both are taken off, and only published pages are targets', (t) => {
  const v2 = division('version', 'v2', ['en/v2/index', 'en/v2/guide']);
  const v1 = division('version', 'v1', ['en/v1/index', 'en/v1/guide']);
  const en = { ...division('language', 'English', []), divisions: [v2, v1] };
  const de = division('language', 'Deutsch', ['de/index', 'de/guide']);
  const root: NavDivision = { kind: 'root', label: '', divisions: [en, de], items: [] };
  t.is(createCounterpartFinder(root, () => true)('de/guide', en), 'en/v2/guide');
  t.is(createCounterpartFinder(root, () => true)('en/v1/guide', de), 'de/guide');
  t.is(createCounterpartFinder(root, (p) => p !== 'de/guide')('en/v1/guide', de), 'de/index', 'an unpublished page is skipped');
});
