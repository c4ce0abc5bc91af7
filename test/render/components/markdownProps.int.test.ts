import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { renderFiles } from '../renderFixture.js';

test('raw Markdown in string props (Frame caption, Prompt description, Card title, Accordion description) is rendered inline, links made relative', async (t) => {
  const { out } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'Props', colors: { primary: '#0D9373' }, navigation: { pages: ['index', 'guides/other'] } }),
    'index.mdx': [
      '---',
      'title: Home',
      '---',
      '',
      '<Frame caption="Figure 1: the **build** step, see [other](/guides/other)">',
      '  <img src="/shot.png" alt="shot" />',
      '</Frame>',
      '',
      '<Prompt description="Ask the `assistant` for _anything_">Write a haiku.</Prompt>',
      '',
      '<Card title="Use ~~old~~ **new** API" href="/guides/other">Body.</Card>',
      '',
      '<Accordion title="Plain title" description="With `inline code`">Hidden.</Accordion>',
      '',
      '<Frame caption="snake_case_name stays as it is, and so does 2 * 3 * 4">',
      '  <img src="/shot.png" alt="shot" />',
      '</Frame>',
      '',
    ].join('\n'),
    'guides/other.mdx': '# Other\n',
    'shot.png': 'png',
  });
  const html = await readFile(join(out, 'index.html'), 'utf8');
  t.regex(
    html,
    /<figcaption class="enclave-frame-caption">Figure 1: the <strong>build<\/strong> step, see <a href="guides\/other\.html">other<\/a><\/figcaption>/,
  );
  t.regex(html, /<p class="enclave-prompt-description">Ask the <code>assistant<\/code> for <em>anything<\/em><\/p>/);
  t.regex(html, /<p class="enclave-card-title">Use <del>old<\/del> <strong>new<\/strong> API<\/p>/);
  t.regex(html, /With <code>inline code<\/code>/);
  t.regex(html, /<figcaption class="enclave-frame-caption">snake_case_name stays as it is, and so does 2 \* 3 \* 4<\/figcaption>/);
  t.false(
    /\*\*|`assistant`|~~/.test(html.slice(html.indexOf('<div class="enclave-content">'), html.indexOf('<div id="enclave-feedback"'))),
    'no raw Markdown left in the content',
  );
});
