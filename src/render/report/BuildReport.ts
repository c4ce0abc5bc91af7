/** The shape of `_enclave/report.json` (SPEC section 4, "The bundle"). */
export interface BuildReport {
  /** `expected` counts what the navigation declares (plus published pages outside it), so pages
   *  lost to a missing input keep `rendered` below it; `missing` counts those lost entries. */
  pages: { expected: number; rendered: number; missing: number; failed: { path: string; reason: string }[] };
  /** Inputs the navigation needs that the source lacks, with the nav entries lost to each. */
  missingInputs: { input: string; reason: string; pages: string[] }[];
  brokenLinks: { page: string; href: string; reason: string }[];
  missingImages: { page: string; src: string }[];
  unknownComponents: Record<string, number>;
  externalUrls: { page: string; url: string }[];
  /** Remote loads the export removed so the bundle makes no request to another origin (see RemovedRemote). */
  removedRemote: RemovedRemote[];
  /** Scripts, script URLs and remote-posting forms the export took out of pages (see RemovedActive). */
  removedActive: RemovedActive[];
  warnings: { message: string; page?: string }[];
  /**
   * Reader access, when any page is marked `public` or with `groups` (reader sign-in): pages by
   * kind (restricted = not public) and the audiences given their own search index and llms files.
   */
  access?: { publicPages: number; signedInPages: number; groupPages: number; restrictedPages: number; audiences: string[] };
}

/**
 * One remote load taken out at export: `page` is the page (or the custom CSS/JS file, or
 * `docs.json`) it was in; `action` says what readers get instead.
 */
export interface RemovedRemote {
  page: string;
  kind: 'image' | 'media' | 'frame' | 'script' | 'stylesheet' | 'font';
  url: string;
  action: 'placeholder' | 'local copy' | 'removed';
  /** The bundle file used instead, for `local copy`. */
  local?: string;
}

/**
 * Something that would run code or send a reader's input elsewhere, taken out of a page at
 * export: a `javascript:` (or `vbscript:`) URL, a `<script>` or an event-handler attribute
 * written in a page (kept when the site allows author scripts), a form posting to another
 * origin (kept with `keepRemoteAssets`). `value` is what was removed, shortened.
 */
export interface RemovedActive {
  page: string;
  kind: 'script-url' | 'script' | 'event-handler' | 'remote-form';
  /** The element and attribute it was in, e.g. `a href`, `script`, `img onerror`, `form action`. */
  where: string;
  value: string;
}
