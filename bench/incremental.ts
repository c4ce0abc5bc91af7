// npm run bench:incremental [-- --source] [--pages N] [--no-vitepress]
// Issue 32's table in one run: the time from saving a page to seeing it live. The appliance runs
// in its own process (dist/, or src/ with --source) and is driven over HTTP, as in bench:export
// (whose pieces, exportHarness.ts, this reuses). For the synthetic site of --pages (default
// 10,000) pages: a first export + deploy fills the incremental cache, then nothing changed, one
// page's body changed and one page's title changed are each exported and deployed to the served
// site (timed from the export request until the changed page is served); Hugo builds the plain
// twin in full in the same run. Then a full cold export (`full: true`) of the 1,000-page site
// against Hugo and VitePress 1.6 on the same twin, and one page changed on a copy of the mcp corpus.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import {
  benchHugo,
  benchVitePress,
  ensureDebianPackage,
  exportOnce,
  installVitePress,
  type Measured,
  type Sample,
  type Server,
  startServer,
  stopServer,
  synthetic,
  table,
  until,
  work,
} from './exportHarness.js';

const fromSource = process.argv.includes('--source');
const withVitePress = !process.argv.includes('--no-vitepress');
const pagesArg = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--pages' ? [a] : []))[0];
const PAGES = Math.max(100, Number(pagesArg ?? 10_000));

/** One case of the table: what was measured, how long, and what the job reused. */
interface Case {
  name: string;
  target: string;
  exportSeconds: number;
  deploySeconds: number;
  sample: Sample;
}

/**
 * Deploys job `sample.jobId`'s zip (from the data directory, as a scheduled re-export hands it
 * over) to `domain` and waits until `path` serves `expect`; returns the seconds it took.
 */
async function deployAndSee(server: Server, domain: string, sample: Sample, path: string, expect: string): Promise<number> {
  const auth = { Authorization: `Bearer ${server.key}`, 'content-type': 'application/json' };
  const started = performance.now();
  const store = JSON.parse(readFileSync(join(server.dataDir, 'exports.json'), 'utf8')) as {
    jobs: { id: string; bundle?: { file: string } }[];
  };
  const file = store.jobs.find((j) => j.id === sample.jobId)?.bundle?.file;
  if (!file) throw new Error(`no bundle for ${sample.jobId}`);
  const bundle = join(server.dataDir, 'bundles', sample.jobId, file);
  const res = await fetch(`${server.url}/v1/deployments`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ bundleUrl: bundle, domain }),
  });
  if (res.status !== 202 && res.status !== 200) throw new Error(`deploy refused: ${res.status} ${await res.text()}`);
  // The POST answers once the version is live (202 only if that takes longer); then the page must show the change.
  await until(
    async () => {
      return (await getWithHost(`${server.url}/${path}`, domain)).includes(expect);
    },
    600_000,
    `${path} to serve the change`,
    10,
  );
  return (performance.now() - started) / 1000;
}

/** GETs `url` with a Host header of `host` (fetch sends the URL's own host, whatever it is given). */
function getWithHost(url: string, host: string): Promise<string> {
  return new Promise((resolveBody, reject) => {
    get(url, { headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** The first page file of a synthetic corpus (its `part-1/section-1/…` MDX). */
function firstPage(dir: string): { file: string; path: string } {
  const section = join(dir, 'part-1', 'section-1');
  const name = readdirSync(section)
    .filter((n) => n.endsWith('.mdx'))
    .sort()[0];
  return { file: join(section, name), path: `part-1/section-1/${name.replace(/\.mdx$/, '')}` };
}

/** Exports `domain`, deploys it and waits for `path` to show `expect`. */
async function measure(
  server: Server,
  domain: string,
  name: string,
  target: string,
  path: string,
  expect: string,
  extra = {},
): Promise<Case> {
  const sample = await exportOnce(server, domain, false, extra);
  const deploySeconds = await deployAndSee(server, domain, sample, path, expect);
  const c = { name, target, exportSeconds: sample.seconds, deploySeconds, sample };
  process.stderr.write(
    `  ${name}: export ${sample.seconds.toFixed(2)} s + deploy ${deploySeconds.toFixed(2)} s; reused ${sample.reusedPages}, rendered ${sample.renderedPages}; load ${loadavg()[0].toFixed(1)}\n`,
  );
  return c;
}

/** The synthetic site: filled once, then nothing changed, one body and one title. */
async function benchSynthetic(source: string): Promise<Case[]> {
  const domain = 'large.bench';
  const server = await startServer('incremental-large', [{ domain, source }]);
  const page = firstPage(source);
  try {
    const cases = [await measure(server, domain, `${PAGES} pages, first export (fills the cache)`, '', page.path, 'Page 1')];
    cases.push(await measure(server, domain, `${PAGES} pages, nothing changed`, '< 0.5 s', page.path, 'Page 1'));
    appendFileSync(page.file, '\nAn edited sentence for the benchmark.\n');
    cases.push(await measure(server, domain, `${PAGES} pages, one body changed`, '< 1 s', page.path, 'An edited sentence'));
    writeFileSync(page.file, readFileSync(page.file, 'utf8').replace(/^title: "([^"]*)"/m, 'title: "$1 renamed"'));
    cases.push(await measure(server, domain, `${PAGES} pages, one title changed`, '< 3 s', page.path, 'renamed'));
    return cases;
  } finally {
    await stopServer(server);
  }
}

/** A copy of the mcp corpus: filled once, then one page changed. */
async function benchMcp(): Promise<Case> {
  const source = join(work, 'mcp');
  cpSync(resolve('../shared/corpora/mcp'), source, { recursive: true });
  const domain = 'mcp.bench';
  const server = await startServer('incremental-mcp', [{ domain, source }]);
  try {
    const file = join(source, 'examples.mdx');
    await measure(server, domain, 'mcp, first export', '', 'examples', '<main');
    appendFileSync(file, '\nAn edited sentence for the benchmark.\n');
    return await measure(server, domain, 'mcp corpus, one page changed', '< 1 s', 'examples', 'An edited sentence');
  } finally {
    await stopServer(server);
  }
}

/** A full cold export (`full: true`, highlighting cache removed) of the 1,000-page site. */
async function benchFull(source: string): Promise<Sample> {
  const domain = 'small.bench';
  const server = await startServer('incremental-small', [{ domain, source }]);
  try {
    await exportOnce(server, domain, false);
    rmSync(join(server.dataDir, 'cache', 'render'), { recursive: true, force: true });
    const sample = await exportOnce(server, domain, true, { full: true });
    process.stderr.write(`  1,000 pages full cold: ${sample.seconds.toFixed(2)} s, peak RSS ${sample.peakRssMb.toFixed(0)} MB\n`);
    return sample;
  } finally {
    await stopServer(server);
  }
}

try {
  ensureDebianPackage('/usr/bin/time', 'time');
  ensureDebianPackage('hugo', 'hugo');
  // Without the network (or with --no-vitepress) the table says so instead of a figure.
  let vitePressNote = withVitePress ? '' : 'not run (--no-vitepress)';
  if (withVitePress)
    try {
      installVitePress();
    } catch {
      vitePressNote = 'could not be installed (offline?)';
    }
  if (!fromSource) {
    process.stderr.write('building dist/\n');
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  process.stderr.write(`generating corpora; load average ${loadavg()[0].toFixed(1)}\n`);
  const large = synthetic(PAGES, true);
  const small = synthetic(1000, true);
  const cases = await benchSynthetic(large.dir);
  const hugoLarge = benchHugo(large.plainDir!);
  process.stderr.write(`  Hugo, ${PAGES} pages: ${hugoLarge.seconds.toFixed(2)} s\n`);
  const mcp = await benchMcp();
  const full = await benchFull(small.dir);
  const hugoSmall = benchHugo(small.plainDir!);
  const vitePress: Measured | null = vitePressNote ? null : benchVitePress(small.plainDir!);

  console.log(
    `\nbench:incremental — ${fromSource ? 'src/ under tsx' : 'dist/ (compiled)'}, node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end\n`,
  );
  const row = (c: Case) => [
    c.name,
    (c.exportSeconds + c.deploySeconds).toFixed(2),
    c.exportSeconds.toFixed(2),
    c.deploySeconds.toFixed(2),
    c.sample.renderSeconds.toFixed(2),
    c.sample.zipSeconds.toFixed(2),
    `${c.sample.reusedPages}/${c.sample.renderedPages}`,
    c.sample.peakRssMb.toFixed(0),
    c.target,
  ];
  console.log(
    table(
      ['case', 'export + deploy s', 'export s', 'deploy s', 'render s', 'zip s', 'reused/rendered', 'worker peak RSS MB', 'target'],
      [
        ...cases.map(row),
        [`Hugo full build, ${PAGES}-page plain twin`, hugoLarge.seconds.toFixed(2), '', '', '', '', '', hugoLarge.peakRssMb.toFixed(0), ''],
        row(mcp),
      ],
    ),
  );
  console.log(`\n1,000 pages, full cold export (full: true, highlighting cache removed) against the peers on the plain twin\n`);
  console.log(
    table(
      ['generator', 'seconds', 'peak RSS MB', 'vs Enclave'],
      [
        ['Enclave', full.seconds.toFixed(2), full.peakRssMb.toFixed(0), '1.0×'],
        [
          'Hugo (Debian)',
          hugoSmall.seconds.toFixed(2),
          hugoSmall.peakRssMb.toFixed(0),
          `${(hugoSmall.seconds / full.seconds).toFixed(2)}×`,
        ],
        ...(vitePress
          ? [
              [
                'VitePress 1.6',
                vitePress.seconds.toFixed(2),
                vitePress.peakRssMb.toFixed(0),
                `${(vitePress.seconds / full.seconds).toFixed(1)}×`,
              ],
            ]
          : [['VitePress 1.6', vitePressNote, '', '']]),
      ],
    ),
  );
  console.log(`API p99 during that export at 200 req/s: ${full.api ? `${full.api.p99.toFixed(0)} ms` : 'n/a'}`);
  console.log(
    "\nexport s: POST /v1/static-export/jobs until completed (after a 3 s pause, as admin scripts run minutes apart); render s and zip s: the worker's own figures for renderSite and packing (the rest of export s is the job's start, the worker's wait and the API); deploy s: POST /v1/deployments of its zip until the changed page is served.",
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
