import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import anyTest, { type TestFn } from 'ava';
import { renderDocs } from './renderFixture.js';

const test = anyTest as TestFn<{ root: string; out: string }>;

test.before(async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'enclave-interface-text-int-'));
  await cp(join(import.meta.dirname, 'fixtures', 'switcher-site'), join(root, 'src'), { recursive: true });
  t.context = { root, out: (await renderDocs(join(root, 'src'))).out };
});
test.after.always((t) => rm(t.context.root, { recursive: true, force: true }));

test('an API page under a language has its section titles and Try it form in that language', async (t) => {
  const html = await readFile(join(t.context.out, 'api-reference/users/update-user.html'), 'utf8');
  t.is(/<html lang="([^"]+)"/.exec(html)?.[1], 'fr');
  const headings = [...html.matchAll(/<h2 id="[^"]+"[^>]*>([^<]+)/g)].map((m) => m[1]);
  t.deepEqual(headings, ['Paramètres de chemin', 'Corps', 'Réponse', 'Sur cette page']);
  t.regex(html, /<code>application\/json<\/code> · obligatoire/);
  t.regex(html, /<summary><span class="enclave-api-method enclave-api-method-post">POST<\/span> Essayer<\/summary>/);
  t.regex(html, /<span>Serveur<\/span>/);
  t.regex(html, /<button type="submit" class="enclave-try-send">Envoyer<\/button>/);
  t.regex(html, /<p class="enclave-try-note">La requête part de votre navigateur vers le serveur ci-dessous/);
  t.regex(html, /data-file-notice="Les navigateurs bloquent les requêtes/);
  t.regex(html, /<span class="enclave-field-tag enclave-field-required">obligatoire<\/span>/);
  t.notRegex(html, />(Path Parameters|Body|Response|Try it|Send|required)</, 'no English label left');
  t.false(/The request goes from your browser|Browsers block requests/.test(html), 'no English note left');
});

test('the generated API page does not hide the language folder: the switcher still keeps the page', async (t) => {
  const html = await readFile(join(t.context.out, 'guides/start.html'), 'utf8');
  t.regex(html, /<a href="\.\.\/fr\/guides\/start\.html">Français<\/a>/);
});
