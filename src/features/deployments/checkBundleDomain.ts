import { BundleRefusedError } from '../../bundle/BundleRefusedError.js';

/**
 * Refuses a bundle built for another site than the one it is being deployed to: without this
 * check, `enclave deploy other-site.zip` (no `--domain`) silently replaced the default site with
 * another site's pages. `target` is the domain the site serves (its own for a site with
 * deployments of its own; for the default site `staticExport.domain` or the domain of its live
 * version), or null when nothing says yet (a default site's first deployment takes any).
 */
export function checkBundleDomain(
  bundleDomain: string,
  target: { domain: string | null; isDefaultSite: boolean },
): BundleRefusedError | null {
  if (target.domain === null || bundleDomain.toLowerCase() === target.domain.toLowerCase()) return null;
  const where = target.isDefaultSite ? `the default site, which serves ${target.domain}` : `the site ${target.domain}`;
  return new BundleRefusedError(
    `this bundle was built for ${bundleDomain} (its manifest says so), but this deployment would replace ${where}. Deploy it to its own site with domain ${bundleDomain} (enclave deploy --domain ${bundleDomain}), or pass allowOtherDomain: true (enclave deploy --allow-other-domain) to put it here anyway`,
    'domain',
  );
}
