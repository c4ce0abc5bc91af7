// npm run bench:export [-- --peers] [--runs N] [--only NAME]… [--source]
// Static export as a user runs it: the appliance is `node dist/main.js` in its own process (built
// first; --source runs src/ under tsx instead), driven over its HTTP API like an admin script.
// Per run, a fresh data directory: the sample site goes live first (as on any first start), then
// the corpus is exported three times: highlighting cache cold, then warm, then cold again (the
// cache removed) while this process offers a steady load to the admin API and records its
// latency. The first two runs are the ones compared with the peers, which build with nothing
// else running; the third shows what the API load costs the export and what the export costs
// the API. Synthetic corpora of 1,000 and 5,000 pages and the mcp corpus; medians over --runs (default 3).
// With --peers, the plain-Markdown twin of the 1,000-page corpus is built with VitePress 1.6
// (installed into a temp dir first) and Hugo (Debian package) once after each 1,000-page run, so
// each run pairs Enclave with the peers on the same spell of a noisy machine; the ratios printed
// are medians of those per-run ratios.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import {
  API_RATE,
  benchHugo,
  benchVitePress,
  ensureDebianPackage,
  exportOnce,
  installVitePress,
  type Measured,
  median,
  type Sample,
  startServer,
  stopServer,
  synthetic,
  table,
  work,
} from './exportHarness.js';

const withPeers = process.argv.includes('--peers');
const fromSource = process.argv.includes('--source');
const argValues = (flag: string) => process.argv.flatMap((a, i) => (process.argv[i - 1] === flag ? [a] : []));
const runs = Math.max(1, Number(argValues('--runs')[0] ?? 3));
/** `--only synthetic-1000` (repeatable) limits the run to the named corpora. */
const only = argValues('--only');
const wanted = (name: string) => only.length === 0 || only.includes(name);

interface Row {
  corpus: string;
  cache: 'cold' | 'warm' | 'cold + API load';
  samples: Sample[];
}

/**
 * `runs` times: a fresh appliance exports `source` cold, warm, then cold under API load.
 * `afterRun` (the peers' builds) runs after each, so both see the same spell of this noisy
 * machine and each run gives a paired ratio.
 */
async function benchCorpus(name: string, source: string, afterRun?: () => void): Promise<Row[]> {
  const domain = `${name}.bench`;
  const cold: Sample[] = [];
  const warm: Sample[] = [];
  const loaded: Sample[] = [];
  for (let run = 1; run <= runs; run++) {
    const server = await startServer(name, [{ domain, source }]);
    try {
      cold.push(await exportOnce(server, domain, false));
      warm.push(await exportOnce(server, domain, false));
      // Only the highlight cache makes a run warm; without it the next export is cold again.
      rmSync(join(server.dataDir, 'cache', 'render'), { recursive: true, force: true });
      loaded.push(await exportOnce(server, domain, true));
    } finally {
      await stopServer(server);
    }
    const s = (list: Sample[]) => list.at(-1)!.seconds.toFixed(1);
    process.stderr.write(
      `  ${name} run ${run}/${runs}: cold ${s(cold)} s, warm ${s(warm)} s, cold + API load ${s(loaded)} s (load ${loadavg()[0].toFixed(1)})\n`,
    );
    afterRun?.();
  }
  return [
    { corpus: name, cache: 'cold', samples: cold },
    { corpus: name, cache: 'warm', samples: warm },
    { corpus: name, cache: 'cold + API load', samples: loaded },
  ];
}

/** The peers and their builds, one per synthetic-1000 run, in run order. */
const peers = [
  { name: 'VitePress 1.6', build: benchVitePress, runs: [] as Measured[] },
  { name: 'Hugo (Debian)', build: benchHugo, runs: [] as Measured[] },
];

try {
  if (withPeers) {
    ensureDebianPackage('/usr/bin/time', 'time');
    ensureDebianPackage('hugo', 'hugo');
    installVitePress();
  }
  if (!fromSource) {
    process.stderr.write('building dist/ (the compiled appliance, as the container runs it)\n');
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  process.stderr.write(`generating corpora; ${runs} run(s) each; load average ${loadavg()[0].toFixed(1)}\n`);
  const small = synthetic(1000, withPeers);
  const large = wanted('synthetic-5000') ? synthetic(5000, false) : { dir: '' };
  const rows: Row[] = [];
  const buildPeers = () => {
    for (const peer of peers) peer.runs.push(peer.build(small.plainDir!));
    process.stderr.write(`  peers: ${peers.map((p) => `${p.name} ${p.runs.at(-1)!.seconds.toFixed(1)} s`).join(', ')}\n`);
  };
  if (wanted('synthetic-1000'))
    rows.push(...(await benchCorpus('synthetic-1000', small.dir, withPeers && small.plainDir ? buildPeers : undefined)));
  if (wanted('synthetic-5000')) rows.push(...(await benchCorpus('synthetic-5000', large.dir)));
  if (wanted('mcp')) rows.push(...(await benchCorpus('mcp', resolve('../shared/corpora/mcp'))));

  const m = (r: Row, f: (s: Sample) => number) => median(r.samples.map(f));
  console.log(
    `\nbench:export — ${fromSource ? 'src/ under tsx' : 'dist/ (compiled)'}, appliance in its own process, driven over HTTP; node ${process.version}, ${cpus().length} CPUs; medians of ${runs} run(s)\n`,
  );
  console.log(
    table(
      [
        'corpus',
        'cache',
        'pages',
        'seconds',
        'render s',
        'zip s',
        'pages/s',
        'worker peak RSS MB (max)',
        'zip MB',
        `API p99 ms @${API_RATE}/s`,
      ],
      rows.map((r) => [
        r.corpus,
        r.cache,
        r.samples[0].pages,
        m(r, (s) => s.seconds).toFixed(2),
        m(r, (s) => s.renderSeconds).toFixed(2),
        m(r, (s) => s.zipSeconds).toFixed(2),
        (r.samples[0].pages / m(r, (s) => s.seconds)).toFixed(0),
        Math.max(...r.samples.map((s) => s.peakRssMb)).toFixed(0),
        r.samples[0].zipMb.toFixed(1),
        r.cache === 'cold + API load'
          ? m(r, (s) => s.api!.p99).toFixed(0) + (r.samples.some((s) => s.api!.errors + s.api!.non2xx) ? ' (some failed)' : '')
          : '',
      ]),
    ),
  );
  console.log('\nseconds: wall time from POST /v1/static-export/jobs until the job reads completed (worker start, render, zip, hash).');
  console.log(
    `API p99: authenticated GET of the project at a steady ${API_RATE} req/s from this process during the third export (cold cache again; target: under 50 ms).`,
  );
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  const enclave = rows.find((r) => r.corpus === 'synthetic-1000' && r.cache === 'cold');
  if (enclave && peers[0].runs.length > 0) {
    const enclaveSeconds = m(enclave, (s) => s.seconds);
    const enclaveRss = Math.max(...enclave.samples.map((s) => s.peakRssMb));
    // Each peer build ran right after an Enclave run: the ratio within a run is the fair one here.
    const pairedRatio = (list: Measured[]) => median(list.map((p, i) => p.seconds / enclave.samples[i].seconds));
    console.log(`\n1,000 pages (plain-Markdown twin for the peers), medians of ${runs}; each peer build right after an Enclave run\n`);
    console.log(
      table(
        ['generator', 'seconds', 'peak RSS MB', 'time vs Enclave (median of per-run ratios)', 'RSS vs Enclave'],
        [
          ['Enclave (cold cache)', enclaveSeconds.toFixed(2), enclaveRss.toFixed(0), '1.0×', '1.0×'],
          ...peers.map(({ name, runs: list }) => {
            const rss = Math.max(...list.map((x) => x.peakRssMb));
            return [
              name,
              median(list.map((x) => x.seconds)).toFixed(2),
              rss.toFixed(0),
              `${pairedRatio(list).toFixed(1)}×`,
              `${(rss / enclaveRss).toFixed(1)}×`,
            ];
          }),
        ],
      ),
    );
    const ratio = pairedRatio(peers[0].runs);
    const worstRss = Math.max(...rows.flatMap((r) => r.samples.map((s) => s.peakRssMb)));
    const apiP99 = Math.max(...rows.filter((r) => r.cache === 'cold + API load').map((r) => m(r, (s) => s.api!.p99)));
    console.log(
      `\ntargets: ≥ 10× faster than VitePress → ${ratio.toFixed(1)}× ${ratio >= 10 ? 'met' : 'NOT met'}; peak RSS < 400 MB → ${worstRss.toFixed(0)} MB ${worstRss < 400 ? 'met' : 'NOT met'}; API p99 < 50 ms → ${apiP99.toFixed(0)} ms ${apiP99 < 50 ? 'met' : 'NOT met'}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
