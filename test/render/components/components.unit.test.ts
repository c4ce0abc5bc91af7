import test from 'ava';
import type { Element, ElementContent } from '../../../src/render/types.js';
import { builtInComponents } from '../../../src/render/components/index.js';
import { fakeRenderContext } from './fakeRenderContext.js';
import { renderComponent, text } from './renderComponent.js';

const figure = (lang: string, filename?: string): Element => ({
  type: 'element',
  tagName: 'figure',
  properties: { dataEnclaveCode: '', dataLang: lang, ...(filename ? { dataFilename: filename } : {}) },
  children: [{ type: 'element', tagName: 'pre', properties: {}, children: [text(`code in ${lang}`)] }],
});

test('callouts are labelled notes with an icon, and Callout takes a colour and icon', (t) => {
  for (const name of ['Note', 'Tip', 'Info', 'Warning', 'Check', 'Danger']) {
    const { html, ctx } = renderComponent(name, {}, [text('body')]);
    t.regex(html, new RegExp(`<aside class="enclave-callout enclave-callout-${name.toLowerCase()}" role="note" aria-label="${name}"`));
    t.regex(html, /<svg[^>]*class="enclave-icon/);
    t.deepEqual(ctx.warnings, []);
  }
  const { html } = renderComponent('Callout', { icon: 'rocket', color: '#ff0000' }, [text('x')]);
  t.regex(html, /style="--enclave-callout-color:#ff0000"/);
  t.regex(html, /data-icon="rocket"/);
  // A colour carrying extra CSS is dropped rather than injected.
  t.notRegex(renderComponent('Callout', { color: 'red;background:url(x)' }).html, /--enclave-callout-color|url\(/);
});

test('Card links through ctx.href, images through ctx.assetUrl, and honours horizontal, cta and arrow', (t) => {
  const { html, ctx } = renderComponent(
    'Card',
    { title: 'Start', icon: 'rocket', href: '/quickstart', img: '/images/hero.png', horizontal: true, cta: 'Read more', arrow: true },
    [text('Body')],
  );
  t.deepEqual(ctx.hrefs, ['/quickstart']);
  t.deepEqual(ctx.assetsAsked, ['/images/hero.png']);
  t.regex(html, /^<a class="enclave-card enclave-card-horizontal enclave-card-linked enclave-card-has-img" href="href:\/quickstart">/);
  t.regex(html, /<img class="enclave-card-img" src="asset:\/images\/hero.png" alt=""/);
  t.regex(html, /<p class="enclave-card-title">Start<\/p>/);
  t.regex(html, /class="enclave-card-cta">Read more</);
  t.regex(html, /class="enclave-card-arrow"/);
  const plain = renderComponent('Card', { title: 'No link' }).html;
  t.regex(plain, /^<div class="enclave-card">/);
  t.notRegex(plain, /enclave-card-arrow/);
  const external = renderComponent('Card', { title: 'Ext', href: 'https://example.com' }).html;
  t.regex(external, /target="_blank" rel="noopener noreferrer"/);
});

test('CardGroup and Columns set their column count, clamped to 1–6', (t) => {
  t.regex(renderComponent('CardGroup', { cols: 3 }).html, /class="enclave-card-group enclave-card-group-cols-3"/);
  t.regex(renderComponent('Columns', { cols: '4' }).html, /cols-4/);
  t.regex(renderComponent('CardGroup', { cols: 40 }).html, /cols-6/);
  t.regex(renderComponent('CardGroup').html, /cols-2/);
});

test('Tabs build an accessible tablist whose first panel shows and which syncs by title', (t) => {
  const ctx = fakeRenderContext();
  const tab = (title: string, body: string) => builtInComponents.Tab({ title, icon: 'code' }, [text(body)], ctx) as ElementContent;
  const { html } = renderComponent('Tabs', {}, [text('\n'), tab('npm', 'A'), text('\n'), tab('yarn', 'B')], ctx);
  t.regex(html, /data-enclave-tabs="" data-sync="tabs"/);
  t.regex(html, /<div class="enclave-tablist" role="tablist">/);
  t.regex(html, /role="tab" id="tabs-1-tab-0" aria-controls="tabs-1-panel-0" aria-selected="true" tabindex="0" data-label="npm"/);
  t.regex(html, /role="tab" id="tabs-1-tab-1" aria-controls="tabs-1-panel-1" aria-selected="false" tabindex="-1" data-label="yarn"/);
  t.regex(html, /role="tabpanel" id="tabs-1-panel-0" aria-labelledby="tabs-1-tab-0" tabindex="0" data-label="npm">A</);
  t.regex(html, /id="tabs-1-panel-1"[^>]*hidden>B</);
  t.is((html.match(/role="tab"/g) ?? []).length, 2, 'whitespace between tabs is not a tab');
  t.regex(html, /data-icon="code"/);
  const unsynced = renderComponent('Tabs', { sync: false }, [tab('a', 'x')]).html;
  t.notRegex(unsynced, /data-sync/);
});

test('CodeGroup labels tabs by filename, else by language, and can be a dropdown', (t) => {
  const { html } = renderComponent('CodeGroup', {}, [figure('ts', 'index.ts'), text('\n'), figure('python')]);
  t.regex(html, /data-sync="code"/);
  t.regex(html, /aria-label="Code examples"/);
  t.regex(html, /data-label="index.ts"/);
  t.regex(html, /data-label="Python"/);
  const dropdown = renderComponent('CodeGroup', { dropdown: true }, [figure('ts', 'a.ts'), figure('go', 'b.go')]).html;
  t.regex(
    dropdown,
    /<select class="enclave-tabs-select" aria-label="Code examples" data-enclave-tabs-select=""><option value="0" selected>a.ts<\/option><option value="1">b.go<\/option><\/select>/,
  );
  t.notRegex(dropdown, /role="tablist"/);
});

test('RequestExample and ResponseExample are labelled asides, tabbed when they hold several blocks', (t) => {
  const one = renderComponent('RequestExample', {}, [figure('bash', 'cURL')]).html;
  t.regex(one, /^<aside class="enclave-example enclave-request-example" aria-label="Request example" data-enclave-request-example="">/);
  t.notRegex(one, /role="tablist"/);
  const two = renderComponent('ResponseExample', {}, [figure('json', '200'), figure('json', '400')]).html;
  t.regex(two, /aria-label="Response example"/);
  t.regex(two, /data-label="200"[\s\S]*data-label="400"/);
});

test('Accordion is a details/summary that honours defaultOpen, description and icon; AccordionGroup wraps', (t) => {
  const closed = renderComponent('Accordion', { title: 'FAQ', description: 'More', icon: 'book' }, [text('answer')]).html;
  t.regex(
    closed,
    /^<details class="enclave-accordion" data-enclave-anchor="faq"><summary/,
    'the anchor request becomes an id when the page is finalized',
  );
  t.regex(closed, /class="enclave-accordion-description">More</);
  t.regex(closed, /data-icon="book"/);
  t.regex(renderComponent('Accordion', { title: 'x', defaultOpen: true }).html, /<details class="enclave-accordion" open/);
  t.regex(renderComponent('AccordionGroup', {}, [text('x')]).html, /class="enclave-accordion-group"/);
});

test('Steps number their Steps, keep an explicit stepNumber and honour titleSize and icons', (t) => {
  const ctx = fakeRenderContext();
  const step = (props: Record<string, unknown>) => builtInComponents.Step(props, [text('do it')], ctx) as ElementContent;
  const { html } = renderComponent(
    'Steps',
    {},
    [
      step({ title: 'One' }),
      text('\n'),
      step({ title: 'Two', titleSize: 'h3' }),
      step({ title: 'Ten', stepNumber: 10 }),
      step({ title: 'Eleven' }),
      step({ title: 'Icon', icon: 'check' }),
    ],
    ctx,
  );
  t.regex(html, /^<ol class="enclave-steps">/);
  const markers = [...html.matchAll(/class="enclave-step-marker" aria-hidden="true" data-number="(\d+)">([^<]*)</g)].map((m) => [
    m[1],
    m[2],
  ]);
  t.deepEqual(markers.slice(0, 4), [
    ['1', '1'],
    ['2', '2'],
    ['10', '10'],
    ['11', '11'],
  ]);
  t.regex(html, /<h3 class="enclave-step-title">Two<\/h3>/);
  t.regex(html, /<p class="enclave-step-title">One<\/p>/);
  t.regex(html, /data-number="12"><svg[^>]*data-icon="check"/);
});

test('Frame shows hint and caption around its content', (t) => {
  const { html } = renderComponent('Frame', { caption: 'A caption', hint: 'A hint' }, [text('img')]);
  t.regex(
    html,
    /^<figure class="enclave-frame"><p class="enclave-frame-hint">A hint<\/p><div class="enclave-frame-body">img<\/div><figcaption class="enclave-frame-caption">A caption<\/figcaption><\/figure>$/,
  );
});

test('ParamField takes its name from the location prop and shows type, required, default, deprecated, placeholder', (t) => {
  const { html } = renderComponent(
    'ParamField',
    { query: 'limit', type: 'integer', required: true, default: 10, deprecated: true, placeholder: '20' },
    [text('How many')],
  );
  t.regex(html, /class="enclave-field enclave-field-is-deprecated"/);
  t.regex(html, /<code class="enclave-field-name">limit<\/code>/);
  t.regex(html, /enclave-field-type">integer</);
  t.regex(html, /enclave-field-location">query</);
  t.regex(html, /enclave-field-required">required</);
  t.regex(html, /default: <code>10<\/code>/);
  t.regex(html, /e\.g\. <code>20<\/code>/);
  for (const where of ['path', 'body', 'header'])
    t.regex(renderComponent('ParamField', { [where]: 'x', type: 'string' }).html, new RegExp(`enclave-field-location">${where}<`));
  t.notRegex(renderComponent('ParamField', { path: 'id' }).html, /required/);
});

test('ResponseField shows name, type, default and pre/post labels; Expandable nests and opens by default when asked', (t) => {
  const { html } = renderComponent(
    'ResponseField',
    { name: 'id', type: 'string', required: true, default: 'abc', pre: ['readonly'], post: 'beta' },
    [text('The id')],
  );
  t.regex(
    html,
    /enclave-field-pre">readonly<\/span><code class="enclave-field-name">id<\/code><span class="enclave-field-tag enclave-field-type">string<\/span><span class="enclave-field-tag enclave-field-post">beta</,
  );
  t.regex(html, /default: <code>abc<\/code>/);
  const ctx = fakeRenderContext();
  const inner = builtInComponents.Expandable({ title: 'inner' }, [text('deep')], ctx) as ElementContent;
  const outer = renderComponent('Expandable', { title: 'outer', defaultOpen: true }, [inner], ctx).html;
  t.regex(
    outer,
    /^<details class="enclave-expandable" open><summary class="enclave-expandable-summary" data-title="outer">Show outer<\/summary><div class="enclave-expandable-body"><details class="enclave-expandable"><summary[^>]*>Show inner</,
  );
});

test('Icon renders inline SVG with size and colour; Badge maps props to safe classes', (t) => {
  const icon = renderComponent('Icon', { icon: 'github', size: 24, color: '#123456' }).html;
  t.regex(icon, /^<svg viewBox="0 0 \d+ \d+" class="enclave-icon enclave-icon-fontawesome"/);
  t.regex(icon, /style="width:24px;height:24px;color:#123456"/);
  t.regex(icon, /aria-hidden="true"/);
  const badge = renderComponent('Badge', { color: 'green', size: 'sm', shape: 'pill', icon: 'check', stroke: true, disabled: true }, [
    text('New'),
  ]).html;
  t.regex(
    badge,
    /^<span class="enclave-badge enclave-badge-color-green enclave-badge-size-sm enclave-badge-shape-pill enclave-badge-stroke enclave-badge-disabled" aria-disabled="true"><svg/,
  );
  t.regex(badge, />New<\/span>$/);
  t.regex(renderComponent('Badge', { color: '"><script>' }).html, /color-gray/);
});

test('Tooltip is keyboard-reachable, described-by its tooltip, with headline and cta link', (t) => {
  const { html, ctx } = renderComponent('Tooltip', { tip: 'An API key', headline: 'Key', cta: 'Learn', href: '/keys' }, [text('API key')]);
  t.regex(html, /<span class="enclave-tooltip-trigger" tabindex="0" aria-describedby="tooltip-1">API key<\/span>/);
  t.regex(
    html,
    /<span class="enclave-tooltip-content" role="tooltip" id="tooltip-1"><strong class="enclave-tooltip-headline">Key<\/strong><span class="enclave-tooltip-tip">An API key<\/span><a class="enclave-tooltip-cta" href="href:\/keys">Learn<\/a>/,
  );
  t.deepEqual(ctx.hrefs, ['/keys']);
});

test('Update gets an anchor id from its label, a self link, description and tags', (t) => {
  const { html } = renderComponent('Update', { label: 'Version 2.1.0', description: 'Released March 15', tags: ['Feature', 'Fix'] }, [
    text('notes'),
  ]);
  t.regex(html, /^<section class="enclave-update" id="version-210" data-enclave-update="">/);
  t.regex(html, /<a class="enclave-update-label" href="#version-210">Version 2.1.0<\/a>/);
  t.regex(html, /<ul class="enclave-update-tags" aria-label="Tags"><li>Feature<\/li><li>Fix<\/li><\/ul>/);
});

test('Tree renders folders as details (open with defaultOpen) and files with comments', (t) => {
  const ctx = fakeRenderContext();
  const file = builtInComponents['Tree.File']({ name: 'server.ts', comment: 'entry' }, [], ctx) as ElementContent;
  const folder = builtInComponents['Tree.Folder']({ name: 'src', defaultOpen: true }, [text('\n'), file], ctx) as ElementContent;
  const { html } = renderComponent('Tree', {}, [folder], ctx);
  t.regex(
    html,
    /^<ul class="enclave-tree"><li class="enclave-tree-folder"><details open><summary><svg[^>]*data-icon="folder"[\s\S]*<span class="enclave-tree-name">src<\/span><\/summary><ul><li class="enclave-tree-file">/,
  );
  t.regex(html, /<span class="enclave-tree-comment">entry<\/span>/);
  t.deepEqual(ctx.warnings, []);
});

test('Mermaid requests the mermaid asset and keeps the chart source readable', (t) => {
  const { html, ctx } = renderComponent('Mermaid', { chart: 'graph TD; A-->B' });
  t.true(ctx.features.has('mermaid'));
  t.regex(
    html,
    /<figure class="enclave-mermaid" data-enclave-mermaid=""><pre class="enclave-mermaid-source">graph TD; A-->B<\/pre><\/figure>/,
  );
});

test('Latex typesets its text with KaTeX', (t) => {
  const { html, ctx } = renderComponent('Latex', {}, [text('x^2 + y^2')]);
  t.true(ctx.features.has('katex'));
  t.regex(html, /class="katex"/);
  t.regex(html, /<math/);
});

test('Panel, Banner, Prompt, Tile, Color and View render their props', (t) => {
  t.regex(renderComponent('Panel', {}, [text('side')]).html, /^<aside class="enclave-panel" data-enclave-panel="">side<\/aside>$/);
  t.regex(renderComponent('Banner', {}, [text('news')]).html, /role="region" aria-label="Announcement">news</);
  const prompt = renderComponent('Prompt', { description: 'Ask it' }, [text('Write tests')]).html;
  t.regex(prompt, /<p class="enclave-prompt-description">Ask it<\/p><button type="button" class="enclave-copy" aria-label="Copy prompt"/);
  t.notRegex(renderComponent('Prompt', { copy: false }, [text('x')]).html, /<button/);
  const tile = renderComponent('Tile', { href: '/x', title: 'T', description: 'D' }, [text('pic')]);
  t.regex(
    tile.html,
    /^<a class="enclave-tile" href="href:\/x"><div class="enclave-tile-media">pic<\/div><p class="enclave-tile-title">T<\/p><p class="enclave-tile-description">D<\/p><\/a>$/,
  );
  const ctx = fakeRenderContext();
  const item = builtInComponents['Color.Item']({ name: 'brand', value: { light: '#0d9373', dark: '#55d6b0' } }, [], ctx) as ElementContent;
  const row = builtInComponents['Color.Row']({ title: 'Primary' }, [item], ctx) as ElementContent;
  const color = renderComponent('Color', { variant: 'table' }, [row], ctx).html;
  t.regex(color, /class="enclave-color enclave-color-variant-table"/);
  t.regex(color, /data-enclave-copy-text="#0d9373" aria-label="Copy brand #0d9373"/);
  t.regex(color, /--swatch-light:#0d9373;--swatch-dark:#55d6b0/);
  t.notRegex(renderComponent('Color.Item', { name: 'x', value: 'red;x:url(y)' }).html, /url\(/);
  const view = renderComponent('View', { title: 'Python', icon: 'python' }, [text('py')]).html;
  t.regex(
    view,
    /^<section class="enclave-view" data-enclave-view="" data-title="Python" aria-label="Python"><span class="enclave-view-icon" hidden><svg/,
  );
});

test('every component renders with no props and no children without throwing', (t) => {
  for (const [name, render] of Object.entries(builtInComponents)) {
    t.notThrows(() => render({}, [], fakeRenderContext()), name);
  }
});
