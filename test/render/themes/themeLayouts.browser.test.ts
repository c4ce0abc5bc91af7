import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import anyTest, { type TestFn } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../helpers/browser.js';
import { renderFilesForSuite } from '../renderFixture.js';

const THEMES = ['mint', 'maple', 'palm', 'willow', 'linden', 'almond', 'aspen', 'luma', 'sequoia'] as const;
type Theme = (typeof THEMES)[number];

const test = anyTest as TestFn<{ browser: Browser; outs: Map<Theme, string>; removes: (() => Promise<void>)[] }>;

const page = (title: string) => `---\ntitle: ${title}\n---\n\nIntro text.\n\n## First part\n\nText.\n\n## Second part\n\nMore text.\n`;
const site = (theme: Theme): Record<string, string> => ({
  'docs.json': JSON.stringify({
    name: 'Themes',
    theme,
    colors: { primary: '#2255aa' },
    navigation: {
      tabs: [
        { tab: 'Guides', groups: [{ group: 'Start', pages: ['index', 'setup'] }] },
        { tab: 'Reference', groups: [{ group: 'Ref', pages: ['reference'] }] },
      ],
    },
  }),
  'index.mdx': page('Home'),
  'setup.mdx': page('Setup'),
  'reference.mdx': page('Reference'),
});

test.before(async (t) => {
  const outs = new Map<Theme, string>();
  const removes: (() => Promise<void>)[] = [];
  for (const theme of THEMES) {
    const { out, remove } = await renderFilesForSuite(site(theme));
    outs.set(theme, out);
    removes.push(remove);
  }
  t.context = { browser: await launchBrowser(), outs, removes };
});
test.after.always(async (t) => {
  await t.context.browser?.close();
  for (const remove of t.context.removes ?? []) await remove();
});

/** Box and computed style of the first element matching each selector, measured in the page. */
interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
  display: string;
  fontFamily: string;
  fontSize: string;
  borderTopWidth: string;
  borderBottomWidth: string;
  borderRadius: string;
  background: string;
}
async function measure(p: Page, selectors: string[]): Promise<Record<string, Box>> {
  return p.evaluate((sels) => {
    const out: Record<string, unknown> = {};
    for (const sel of sels) {
      const el = document.querySelector(sel);
      if (!el) throw new Error(`no ${sel}`);
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      out[sel] = {
        left: r.left,
        top: r.top,
        right: r.right,
        bottom: r.bottom,
        width: r.width,
        height: r.height,
        display: s.display,
        fontFamily: s.fontFamily,
        fontSize: s.fontSize,
        borderTopWidth: s.borderTopWidth,
        borderBottomWidth: s.borderBottomWidth,
        borderRadius: s.borderTopLeftRadius,
        background: s.backgroundColor,
      };
    }
    return out as Record<string, Box>;
  }, selectors);
}

const PARTS = [
  '.enclave-header',
  '.enclave-topbar',
  '.enclave-tabs',
  '#enclave-sidebar',
  '.enclave-main',
  '.enclave-toc',
  'body',
  '.enclave-search-button',
];

async function open(t: { context: { browser: Browser; outs: Map<Theme, string> } }, theme: Theme, width: number) {
  const context = await t.context.browser.newContext({ viewport: { width, height: 900 } });
  const p = await context.newPage();
  await p.goto(pathToFileURL(join(t.context.outs.get(theme)!, 'setup.html')).href);
  const box = await measure(p, PARTS);
  const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  return { p, context, box, overflow };
}

const DESKTOP = 1440;
const PHONE = 390;

/**
 * Each theme's page measured at desktop width, once: its own test and the comparison with mint
 * read the same numbers, so the page is loaded and measured a single time for both.
 */
const desktopMeasures = new Map<Theme, Promise<{ box: Record<string, Box>; overflow: number }>>();
function measureDesktop(t: Parameters<typeof open>[0], theme: Theme) {
  let measured = desktopMeasures.get(theme);
  if (!measured) {
    measured = open(t, theme, DESKTOP).then(async ({ context, box, overflow }) => {
      await context.close();
      return { box, overflow };
    });
    desktopMeasures.set(theme, measured);
  }
  return measured;
}

/** What each theme's layout must show at desktop width (1440 px). */
const DESKTOP_CHECKS: Record<Theme, (b: Record<string, Box>) => [boolean, string][]> = {
  mint: (b) => [
    [b['.enclave-header'].left === 0 && b['.enclave-header'].width === DESKTOP, 'full-width header'],
    [b['.enclave-tabs'].top >= b['.enclave-topbar'].bottom - 1, 'tabs on their own row under the top bar'],
    [b['#enclave-sidebar'].left === 20, 'sidebar inside the page padding'],
    [b['.enclave-toc'].display !== 'none' && b['.enclave-toc'].left > b['.enclave-main'].right, 'table of contents right of the content'],
  ],
  maple: (b) => [
    [
      b['.enclave-tabs'].top >= b['.enclave-header'].top && b['.enclave-tabs'].bottom <= b['.enclave-topbar'].bottom + 1,
      'tabs in the top bar row',
    ],
    [b['.enclave-tabs'].left > b['.enclave-search-button'].right, 'tabs after the search'],
    [b['.enclave-header'].borderBottomWidth === '0px', 'no rule under the header'],
  ],
  palm: (b) => [
    [b['#enclave-sidebar'].left === 0, 'navigation panel flush with the window edge'],
    [b['#enclave-sidebar'].height >= 900 - b['#enclave-sidebar'].top - 2, 'panel as tall as the window below it'],
    [b['#enclave-sidebar'].background !== b.body.background, 'tinted panel'],
  ],
  willow: (b) => [
    [b['.enclave-header'].borderBottomWidth === '0px', 'no rule under the header'],
    [Math.abs(b['#enclave-sidebar'].left - (DESKTOP - 1280) / 2 - 20) <= 1, 'a narrower page centred in the window'],
  ],
  linden: (b) => [
    [/mono|Menlo|Consolas/i.test(b['.enclave-main'].fontFamily), 'monospaced type'],
    [b['.enclave-search-button'].borderRadius === '0px', 'square corners'],
  ],
  almond: (b) => [
    [b['.enclave-main'].borderTopWidth === '1px' && b['.enclave-main'].borderRadius === '16px', 'content framed as a card'],
    [b['#enclave-sidebar'].borderRadius === '16px', 'navigation framed as a card'],
    [b.body.background !== b['.enclave-main'].background, 'cards on a tinted canvas'],
  ],
  aspen: (b) => [[Math.round(b['#enclave-sidebar'].width) === 304, 'a wider sidebar (19rem)']],
  luma: (b) => [
    [b['.enclave-topbar'].left >= 10 && b['.enclave-topbar'].borderRadius === '999px', 'a floating rounded top bar'],
    [b['.enclave-header'].borderBottomWidth === '0px', 'no rule under the header'],
  ],
  sequoia: (b) => [
    [b['.enclave-main'].width <= 768 && b.body.fontSize === '17px', 'a narrow reading column in larger type'],
    [b['.enclave-main'].left > b['#enclave-sidebar'].right + 40, 'the column centred between the rails'],
  ],
};

/** Touches each theme keeps on a phone (390 px), beyond the one-column page every theme has. */
const PHONE_CHECKS: Partial<Record<Theme, (b: Record<string, Box>) => [boolean, string][]>> = {
  mint: (b) => [[b['.enclave-tabs'].top >= b['.enclave-topbar'].bottom - 1, 'tabs under the top bar']],
  maple: (b) => [[b['.enclave-tabs'].top >= b['.enclave-topbar'].bottom - 1, 'tabs back on their own row']],
  willow: (b) => [[b['.enclave-header'].borderBottomWidth === '0px', 'no rule under the header']],
  linden: (b) => [[/mono|Menlo|Consolas/i.test(b['.enclave-main'].fontFamily), 'monospaced type']],
  almond: (b) => [[b['.enclave-main'].borderTopWidth === '0px', 'no card border on a phone']],
  luma: (b) => [[b['.enclave-topbar'].borderRadius === '999px' && b['.enclave-topbar'].left >= 10, 'the floating top bar']],
  sequoia: (b) => [[b.body.fontSize === '17px', 'larger type']],
};

for (const theme of THEMES) {
  test(`${theme}: its header, sidebar and content framing at desktop and phone width`, async (t) => {
    const desktop = await measureDesktop(t, theme);
    for (const [ok, what] of DESKTOP_CHECKS[theme](desktop.box)) t.true(ok, `${theme} desktop: ${what} ${JSON.stringify(desktop.box)}`);
    t.true(desktop.box['#enclave-sidebar'].display !== 'none', 'sidebar shown on desktop');
    t.true(desktop.overflow <= 0, 'no sideways scrolling');

    const phone = await open(t, theme, PHONE);
    t.is(phone.box['#enclave-sidebar'].display, 'none', `${theme} phone: sidebar behind the menu`);
    t.true(phone.overflow <= 0, `${theme} phone: no sideways scrolling`);
    t.true(phone.box['.enclave-main'].left >= 0 && phone.box['.enclave-main'].right <= PHONE, `${theme} phone: content within the screen`);
    for (const [ok, what] of PHONE_CHECKS[theme]?.(phone.box) ?? []) t.true(ok, `${theme} phone: ${what} ${JSON.stringify(phone.box)}`);
    // The menu button opens the navigation over the whole screen.
    await phone.p.locator('.enclave-menu-toggle').click();
    const open_ = await measure(phone.p, ['#enclave-sidebar']);
    t.true(
      open_['#enclave-sidebar'].display !== 'none' && Math.round(open_['#enclave-sidebar'].width) === PHONE,
      `${theme} phone: menu opens the sidebar`,
    );
    await phone.context.close();
  });
}

test('every theme differs from mint in at least one measured part of its layout', async (t) => {
  const baseBox = (await measureDesktop(t, 'mint')).box;
  for (const theme of THEMES.filter((x) => x !== 'mint')) {
    const other = await measureDesktop(t, theme);
    t.notDeepEqual(other.box, baseBox, theme);
    // A theme's own checks fail on mint's layout: each check measures something mint doesn't do.
    t.true(
      DESKTOP_CHECKS[theme](baseBox).some(([ok]) => !ok),
      `${theme}'s checks would pass on mint`,
    );
  }
});
