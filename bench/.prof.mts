import { renderSite } from '../src/render/renderSite.js';
import { rmSync } from 'node:fs';
const threads = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
rmSync('/tmp/prof-out', { recursive: true, force: true });
rmSync('/tmp/prof-cache', { recursive: true, force: true });
const t0 = performance.now(); const c0 = process.cpuUsage();
const r = await renderSite({ sourceDir: process.argv[2], outDir: '/tmp/prof-out', cacheDir: '/tmp/prof-cache', domain: 'b.example', jobId: 'b', now: new Date(), generatorVersion: 'b', threads });
const c = process.cpuUsage(c0);
console.log(`threads=${threads}`, r.pageCount, 'pages', ((performance.now() - t0) / 1000).toFixed(2), 's wall', ((c.user + c.system) / 1e6).toFixed(2), 's cpu', (process.resourceUsage().maxRSS / 1024).toFixed(0), 'MB');
