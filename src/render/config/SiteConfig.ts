/** Normalised site configuration, the same shape whether the source had docs.json or mint.json. */

/** A page reference in the navigation: a site path such as `guides/start`. */
export interface NavPage {
  kind: 'page';
  path: string;
}
/** An operation reference (`"GET /users"` or `"spec.yaml GET /users"`) resolved to a page later. */
export interface NavOperation {
  kind: 'operation';
  method: string;
  path: string;
  spec?: string;
}
/** A sidebar group, possibly nested. */
export interface NavGroup {
  kind: 'group';
  title: string;
  icon?: string;
  expanded?: boolean;
  hidden?: boolean;
  /** `"public": true`: its pages open to readers who have not signed in (reader sign-in). */
  public?: boolean;
  /** Optional page the group title links to. */
  root?: string;
  /** OpenAPI files whose operations fill this group (whole-spec generation). */
  openapi?: string[];
  items: NavItem[];
}
/** A link in the sidebar to somewhere else (usually external). */
export interface NavLink {
  kind: 'link';
  title: string;
  href: string;
  icon?: string;
}
export type NavItem = NavPage | NavOperation | NavGroup | NavLink;

/** One level of docs.json's navigation dimensions (tabs, anchors, versions, …); `menu` is an item of a tab's menu. */
export type DivisionKind = 'root' | 'tab' | 'menu' | 'anchor' | 'dropdown' | 'version' | 'language' | 'product';

/**
 * Division kinds that scope a reader's view: prev/next and search stay inside them, and their
 * switchers keep the reader's page.
 */
export const SCOPE_DIVISION_KINDS: ReadonlySet<DivisionKind> = new Set<DivisionKind>(['language', 'version', 'product']);

/** A navigation division: either an external link (`href`) or a container of sub-divisions and items. */
export interface NavDivision {
  kind: DivisionKind;
  label: string;
  /** For languages: the code as written (`fr`); `label` is then the language's own name. */
  code?: string;
  icon?: string;
  href?: string;
  isDefault?: boolean;
  hidden?: boolean;
  openapi?: string[];
  /** The division's own `global` links (`navigation.languages[].global.anchors`), shown on its pages. */
  globalLinks?: SiteLink[];
  divisions: NavDivision[];
  items: NavItem[];
}

/** A plain labelled link (navbar, footer, global anchors). */
export interface SiteLink {
  label: string;
  href: string;
  icon?: string;
}

/** Everything the renderer needs from the docs config. */
export interface SiteConfig {
  configFile: 'docs.json' | 'mint.json';
  name: string;
  description?: string;
  colors: { primary: string; light?: string; dark?: string; background?: { light?: string; dark?: string } };
  logo?: { light: string; dark: string; href?: string };
  favicon?: string | { light: string; dark: string };
  navbarLinks: SiteLink[];
  navbarPrimary?: SiteLink;
  globalLinks: SiteLink[];
  footerSocials: SiteLink[];
  footerLinks: { header?: string; items: SiteLink[] }[];
  redirects: { source: string; destination: string; permanent?: boolean }[];
  navigation: NavDivision;
  iconLibrary: string;
  appearance: { default: 'system' | 'light' | 'dark'; strict: boolean };
  fonts: { family: string; source?: string; weight?: number; format?: string }[];
  metatags: Record<string, string>;
  /** Every OpenAPI file named anywhere in the config (site-relative, no leading slash) or remote URLs. */
  openapiRefs: string[];
  /** `openapi: {source, directory}`: the folder a spec's generated pages go in, by ref (as in openapiRefs). */
  openapiDirectories?: Record<string, string>;
  /** Whether pages with `noindex` or hidden-from-nav pages are left out of search/sitemap. */
  seoIndexing: 'navigable' | 'all';
  /** docs.json `theme` (layout/colour variant), one of SITE_THEMES; `mint` when absent or unknown. */
  theme: SiteTheme;
}

/** The theme names docs.json accepts. */
export const SITE_THEMES = ['mint', 'maple', 'palm', 'willow', 'linden', 'almond', 'aspen', 'sequoia', 'luma'] as const;
export type SiteTheme = (typeof SITE_THEMES)[number];
