import { redactCredentials } from '../../platform/git/redactCredentials.js';

/** The values a PR link template may use. */
export interface PrLinkValues {
  repository: string;
  base: string;
  branch: string;
  id: string;
  /** The URL of the branch's preview ('' without one), e.g. for a description parameter. */
  preview?: string;
}

/**
 * The path part of a repository, as code hosts name it in their URLs: `org/docs` for
 * `https://git.corp/org/docs.git`, `git@git.corp:org/docs.git` or `/srv/git/org/docs.git`
 * (a local path keeps all of its directories; operators with local repositories usually
 * write the name into the template instead).
 */
export function repositoryPath(repository: string): string {
  const clean = redactCredentials(repository);
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(clean);
  const scp = /^[^/:]+:(?!\/\/)(.*)$/.exec(clean);
  const path = url ? (url[1] ?? '') : scp ? scp[1] : clean;
  return path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
}

/** Percent-encodes a value but keeps `/`, which is legal in both paths and query values. */
function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(/%2F/gi, '/');
}

/**
 * Fills `{repository}`, `{base}`, `{branch}` and `{id}` in an operator's template, e.g. a
 * Gitea compare URL `https://git.corp/{repository}/compare/{base}...{branch}`. Brackets in the
 * query (GitLab's `merge_request[source_branch]=`) are percent-encoded, so the link is a valid
 * URI as the hosted API types `prLink`; code hosts decode them alike.
 */
export function buildPrLink(template: string, values: PrLinkValues): string {
  const filled: Record<string, string> = { ...values, preview: values.preview ?? '', repository: repositoryPath(values.repository) };
  const link = template.replace(/\{(repository|base|branch|id|preview)\}/g, (_, name: string) => encodeValue(filled[name]));
  return link.replace(/\?.*$/, (query) => query.replace(/\[/g, '%5B').replace(/\]/g, '%5D'));
}
