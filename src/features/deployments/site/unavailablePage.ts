/** The page the site answers with 503 while no version has been deployed yet. */
export const UNAVAILABLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Documentation not deployed yet</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:.1em .3em;border-radius:3px}</style>
</head>
<body>
<main>
<h1>Documentation not deployed yet</h1>
<p>This Enclave appliance is running, but no version of the documentation site is active, so there is nothing to show here yet.</p>
<p>An administrator can deploy a bundle with <code>enclave deploy &lt;url|file&gt;</code> or the <code>POST /v1/deployments</code> API, or set <code>staticExport.bundleUrl</code> in the configuration. The appliance's state is reported at <code>/_enclave/ready</code>.</p>
</main>
</body>
</html>
`;

/**
 * The page the site answers with 503 while its first version is being prepared (`reason`, e.g.
 * the first export still running): it says so and reloads itself until the site is up.
 */
export function comingSoonPage(reason: string): string {
  const said = reason.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${COMING_SOON_RETRY_SECONDS}">
<title>Documentation is on its way</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#222}</style>
</head>
<body>
<main>
<h1>Documentation is on its way</h1>
<p>This Enclave appliance has just started and ${said}. The site is up as soon as that finishes, usually within seconds; this page reloads by itself.</p>
</main>
</body>
</html>
`;
}

/** How soon a client should ask again while the first version is being prepared. */
export const COMING_SOON_RETRY_SECONDS = 3;
