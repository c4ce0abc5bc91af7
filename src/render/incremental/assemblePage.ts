import { featureAssets } from '../components/featureAssets.js';
import { pageFile } from '../links/SiteIndex.js';
import type { PageFeature, PageResult } from '../parallel/PageResult.js';
import type { ShellParts } from '../site/createShellParts.js';
import type { LoadedSite } from '../site/loadSite.js';
import { sectionChunks } from '../search/sectionChunks.js';
import { renderPageShell } from '../theme/renderPageShell.js';
import type { PageBody } from './PageBody.js';
import type { PageOutput } from './PageOutputs.js';

/** Bundle paths of a feature's stylesheets and scripts (the files themselves are copied once, at the end). */
export function featureTargets(feature: PageFeature): { css: string[]; js: string[] } {
  const files = featureAssets(feature);
  return {
    css: files.filter((f) => f.target.endsWith('.css')).map((f) => f.target),
    js: files.filter((f) => f.target.endsWith('.js')).map((f) => f.target),
  };
}

/**
 * Builds what wraps a page's body in this export's navigation: the theme shell (sidebar, tabs,
 * breadcrumbs, prev/next, search scope) and the page's entries in the site-wide outputs. A body
 * rendered now and one reused from the incremental cache come out the same, which is what keeps
 * an incremental export byte-identical to a full one. With `copied` (the page's files, already
 * taken from the previous bundle), only its entries in the site-wide outputs are made.
 */
export function createPageAssembler(
  site: LoadedSite,
  shell: ShellParts,
): (position: number, body: PageBody, copied?: PageOutput) => PageResult {
  const targets = new Map<PageFeature, { css: string[]; js: string[] }>();
  const targetsOf = (feature: PageFeature) => {
    if (!targets.has(feature)) targets.set(feature, featureTargets(feature));
    return targets.get(feature)!;
  };
  return (position, body, copied) => {
    const page = site.selected[position];
    const file = pageFile(page.path);
    const common = { position, body, fellBack: body.fellBack, ids: body.ids, anchorChecks: body.anchorChecks, features: body.features };
    if (body.failedReason !== undefined) {
      const title = shell.label(page.path);
      return {
        ...common,
        files: [[file, shell.errorPage(page, title, body.failedReason)]],
        manifest: { path: page.path, title, file },
        failedReason: body.failedReason,
        markdown: null,
        classes: [],
      };
    }
    const shellHtml = () => {
      const extra = { styles: [] as string[], scripts: [] as string[], customScripts: body.tryIt === undefined };
      for (const feature of body.features) {
        extra.styles.push(...targetsOf(feature).css);
        extra.scripts.push(...targetsOf(feature).js);
      }
      return renderPageShell(shell.site, shell.page(page, body, extra), shell.rootPrefix(page.path));
    };
    const listed = site.nav.locations.has(page.path) && !body.hidden;
    const indexed = !body.noindex && (listed || site.config.seoIndexing === 'all');
    const { title } = body;
    return {
      ...common,
      files: copied
        ? []
        : [
            [file, shellHtml()],
            [`${page.path}.md`, body.markdown ?? ''],
          ],
      ...(copied ? { copied } : {}),
      manifest: body.tryIt ? { path: page.path, title, file, tryIt: body.tryIt } : { path: page.path, title, file },
      indexed: indexed ? indexedEntries(site, shell, page.path, body) : undefined,
      markdown: body.markdown,
      classes: body.classes,
    };
  };
}

/** A listed page's entries in the search index, llms.txt, the agents' channel and the section chunks. */
function indexedEntries(site: LoadedSite, shell: ShellParts, path: string, body: PageBody): NonNullable<PageResult['indexed']> {
  const scope = shell.scope(path);
  const { title, description } = body;
  return {
    search: [path, title, body.headings, description ?? '', body.text, body.sections, scope],
    llms: { path, title, description, section: site.nav.locations.get(path)?.groups[0] },
    agents: body.agentText ? { path, title, scope, text: body.agentText } : undefined,
    chunks: sectionChunks({
      path,
      title,
      description: description ?? '',
      markdown: body.markdown ?? '',
      headings: body.headings.map((text, i) => ({ text, id: body.sections[i]?.[0] ?? '' })),
      scope,
      tag: body.tag,
    }),
  };
}
