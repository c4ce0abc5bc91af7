import test from 'ava';
import { matchPreviewRequest, previewSlug, previewUrls } from '../../src/features/sources/previews/previewAddress.js';
import { withPreviewBanner } from '../../src/features/sources/previews/previewBanner.js';

test('a slug is a DNS label, stable for a site and branch, and tells apart branches that read alike', (t) => {
  const slug = previewSlug('docs.example', 'Feature/Login_Page');
  t.regex(slug, /^feature-login-page-[0-9a-f]{6}$/);
  t.is(previewSlug('docs.example', 'Feature/Login_Page'), slug);
  t.not(previewSlug('docs.example', 'feature-login-page'), slug);
  t.not(previewSlug('other.example', 'Feature/Login_Page'), slug);
  t.true(previewSlug('docs.example', 'x'.repeat(200)).length <= 63);
  t.regex(previewSlug('docs.example', '___'), /^branch-[0-9a-f]{6}$/);
});

test('preview URLs keep the public scheme and port, on the site name or the host pattern', (t) => {
  t.deepEqual(previewUrls('https://10.0.0.5:8443/', 'docs.example', 'a-123abc', null), {
    pathUrl: 'https://docs.example:8443/_preview/a-123abc/',
    hostUrl: null,
    url: 'https://docs.example:8443/_preview/a-123abc/',
  });
  const withHost = previewUrls('http://127.0.0.1:3000', 'docs.example', 'a-123abc', '{branch}.preview.docs.example');
  t.is(withHost.hostUrl, 'http://a-123abc.preview.docs.example:3000/');
  t.is(withHost.url, 'http://a-123abc.preview.docs.example:3000/');
});

test('a request names a preview by prefix or by host; anything else is the live site', (t) => {
  t.deepEqual(matchPreviewRequest('docs.example', '/_preview/a-123abc/guides/x', null), {
    slug: 'a-123abc',
    base: '/_preview/a-123abc',
    rest: '/guides/x',
  });
  t.deepEqual(matchPreviewRequest('docs.example', '/_preview/a-123abc', null), { slug: 'a-123abc', base: '/_preview/a-123abc', rest: '' });
  t.is(matchPreviewRequest('docs.example', '/guides/_preview/a', null), null);
  const pattern = '{branch}.preview.docs.example';
  t.deepEqual(matchPreviewRequest('a-123abc.preview.docs.example', '/x', pattern), { slug: 'a-123abc', base: '', rest: '/x' });
  t.is(matchPreviewRequest('preview.docs.example', '/', pattern), null);
  t.is(matchPreviewRequest('docs.preview.docs.example', '/', pattern), null, 'a name without a slug’s tag stays the site’s');
  t.is(matchPreviewRequest('a.b-123abc.preview.docs.example', '/', pattern), null);
});

test('the banner goes first in the body and the noindex meta into the head, escaped', (t) => {
  const html = withPreviewBanner('<html><head><title>x</title></head><body class="a"><p>page</p></body></html>', {
    branch: 'fix/<script>',
    sha: 'abcdef1234567890abcdef1234567890abcdef12',
    slug: 'fix-script-123abc',
  });
  t.regex(html, /<meta name="robots" content="noindex, nofollow"><\/head>/);
  t.regex(html, /<body class="a"><div id="enclave-preview-banner"/);
  t.true(html.includes('fix/&#60;script&#62;'));
  t.false(html.includes('fix/<script>'));
  t.true(html.includes('>abcdef1</code>'));
  t.true(html.indexOf('enclave-preview-banner') < html.indexOf('<p>page</p>'));
});
