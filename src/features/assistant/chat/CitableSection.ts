/** A retrieved section as the prompt and the answer's sources need it. */
export interface CitableSection {
  /** Site path of the page (`/guides/deploy`). */
  path: string;
  /** Heading id on that page; the citation link lands there. */
  anchor?: string;
  /** Page title. */
  title: string;
  /** Section heading, when the chunk is a section below the page's top. */
  section?: string;
  /** The section's text (Markdown). */
  content: string;
}

/** The link a citation of `section` points at: the page, and the heading when there is one. */
export function sectionUrl(section: Pick<CitableSection, 'path' | 'anchor'>): string {
  return section.anchor ? `${section.path}#${section.anchor}` : section.path;
}
