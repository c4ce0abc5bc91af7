/**
 * Words too common to tell sections apart. The site's search box needs every term to match, so
 * it never meets them in practice (readers type keywords); questions in sentences ("how do I …")
 * are full of them, and each would add a small score to nearly every section.
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do does for from how i if in is it its me my of on or so that the their them then there these ' +
    'this to was we what when where which who why will with you your use using get make want need should could would about ' +
    'into any some there here than just also'
  ).split(' '),
);

/** Terms of one query looked up at most. */
const MAX_TERMS = 64;

/**
 * A query's terms as the site's search box splits them (lower-case runs of letters, digits and
 * `_`), without stop words unless nothing else is left, and without repeats.
 */
export function queryTerms(query: string): string[] {
  const all = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((t) => t.length > 0);
  const kept = all.filter((t) => !STOP_WORDS.has(t));
  // The index counts matched terms in a byte; a query of 1,000 characters has fewer terms than that anyway.
  return [...new Set(kept.length > 0 ? kept : all)].slice(0, MAX_TERMS);
}
