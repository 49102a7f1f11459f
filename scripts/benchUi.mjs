#!/usr/bin/env node
/**
 * UI figures, measured in Chromium (Debian's /usr/bin/chromium through Playwright). Prints one
 * JSON line per figure, like `npm run bench`:
 *
 * - timeline.first_render_ms.10k: build the model of a 10,000-event synthetic trace, draw it, reach a painted frame.
 * - timeline.frame_p95_ms.10k / .50k: script + style + layout of one zoom/pan frame, 95th percentile.
 * - ui.step_latency_p95_ms: on the built site, a click on "Step" in lesson 5's player until the
 *   next painted frame (store update, React render, timeline update), 95th percentile.
 * - bundle.initial_js_kb_gz: gzipped size of the JavaScript the first page loads (entry + preloads).
 *
 * Usage: node scripts/benchUi.mjs   (builds the site and the bench page into temporary folders)
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { chromium } from '@playwright/test';

const root = new URL('..', import.meta.url).pathname;
const line = (figure) => console.log(JSON.stringify(figure));
const quiet = { logLevel: 'silent' };

const siteDir = mkdtempSync(join(tmpdir(), 'lockstep-site-'));
const benchDir = mkdtempSync(join(tmpdir(), 'lockstep-bench-'));
await build({ ...quiet, root, build: { outDir: siteDir, emptyOutDir: true } });
await build({ ...quiet, configFile: false, root: join(root, 'src/timeline/bench'), base: './', build: { outDir: benchDir, emptyOutDir: true, target: 'es2022', rollupOptions: { input: join(root, 'src/timeline/bench/bench.html') } } });

line({ name: 'bundle.initial_js_kb_gz', value: round(initialJsKbGz(siteDir), 1), unit: 'KB', goal: 150 });

const site = await serve(siteDir);
const bench = await serve(benchDir);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const [label, events] of [['10k', 10_000], ['50k', 50_000]]) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${bench.url}/bench.html`);
    const result = await page.evaluate((n) => window.lockstepBench(n, 120), events);
    if (label === '10k') line({ name: 'timeline.first_render_ms.10k', value: round(result.firstRenderMs, 1), unit: 'ms' });
    line({ name: `timeline.frame_p95_ms.${label}`, value: round(result.frameWorkP95Ms, 2), unit: 'ms', goal: 16, dense: result.dense });
    await page.close();
  }

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${site.url}/#/lesson/paused-barista`);
  await page.getByRole('button', { name: 'Play' }).first().waitFor({ timeout: 30_000 });
  const samples = await page.evaluate(async () => {
    const region = [...document.querySelectorAll('section.player')][0];
    const buttons = () => [...region.querySelectorAll('button')];
    const step = () => buttons().find((b) => b.textContent === 'Step');
    const reset = () => buttons().find((b) => b.textContent === 'Reset');
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
    const out = [];
    for (let round = 0; round < 3; round++) {
      reset()?.click();
      await frame();
      while (step() && !step().disabled) {
        const t0 = performance.now();
        step().click();
        // The click's work runs synchronously (React flushes discrete events); the next frame
        // includes style, layout and paint of what changed.
        await frame();
        out.push(performance.now() - t0);
      }
    }
    return out;
  });
  line({ name: 'ui.step_latency_p95_ms', value: round(percentile(samples, 95), 2), unit: 'ms', goal: 16, samples: samples.length });
  await page.close();
} finally {
  await browser.close();
  site.close();
  bench.close();
}

function initialJsKbGz(dir) {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\.?\/?([^"]+\.js)"/g)].map((m) => m[1]);
  return files.reduce((sum, f) => sum + gzipSync(readFileSync(join(dir, f))).length, 0) / 1024;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;
}

function round(v, digits) {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** A static file server for a built folder on a free port (vite preview would need a config). */
function serve(dir) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.json': 'application/json', '.webmanifest': 'application/manifest+json' };
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = path.endsWith('/') ? `${path}index.html` : path;
    try {
      const body = readFileSync(join(dir, file));
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() })));
}
