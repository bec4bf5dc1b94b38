// SPDX-License-Identifier: LGPL-2.1-or-later
// The HTML page's heat map in headless Chromium, used as a person would: the
// grid of cells, a drag over a range of cells, then the slice's flame graph
// and flat profile.  The slice's sample count must equal mycl-hot's on the
// --time range the page prints for it (run here); the flame graph's root and
// the flat rows must hold the slice's samples; the grid's screenshot must
// change with the selection.  Screenshots go to OUTDIR.
// usage: node heatmap.mjs MYCL_HOT RECORDING HTML OUTDIR [SYMFS]
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [hot, rec, htmlPath, outDir, symfs] = process.argv.slice(2);
let failures = 0, passes = 0;
function check(ok, what) {
	if (ok) { passes++; console.log(`ok - ${what}`); }
	else { failures++; console.log(`not ok - ${what}`); }
}

function myclSamples(time) {
	const args = ['--format', 'json', '-q', '--time', time, rec];
	if (symfs) args.unshift('--symfs', symfs);
	const doc = JSON.parse(execFileSync(hot, args, { encoding: 'utf8' }));
	return doc.events.reduce((n, e) => n + e.samples, 0);
}

const browser = await chromium.launch({
	executablePath: process.env.MYCL_CHROMIUM || '/usr/bin/chromium',
	args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
	const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
	const errors = [], fetched = [];
	const self = pathToFileURL(path.resolve(htmlPath)).href;
	page.on('pageerror', e => errors.push(String(e)));
	page.on('request', r => { if (r.url() !== self) fetched.push(r.url()); });
	await page.goto(self);
	const grid = await page.evaluate(() => {
		const cells = [...document.querySelectorAll('#hm-grid div')];
		return { n: cells.length, hot: cells.filter(d => d.style.background).length };
	});
	check(grid.n > 0 && grid.hot > 0, `the grid has ${grid.n} cells, ${grid.hot} with samples`);
	const whole = await page.evaluate(() => document.getElementById('hm-what').textContent);
	const m0 = /, (\d+) samples \(mycl-hot --time (\S+)\)/.exec(whole);
	check(m0 && +m0[1] === myclSamples(m0[2]), `the whole run at first: '${whole}'`);
	const before = await page.locator('#hm-grid').screenshot({ path: path.join(outDir, 'heatmap-grid.png') });
	// drag over the cells from a quarter to three quarters of the run
	const n = await page.evaluate(() => JSON.parse(document.getElementById('hm-data').textContent).n);
	const a = page.locator(`#hm-grid div[data-b="${Math.floor(n / 4)}"]`);
	const b = page.locator(`#hm-grid div[data-b="${Math.floor(3 * n / 4)}"]`);
	const ba = await a.boundingBox(), bb = await b.boundingBox();
	await page.mouse.move(ba.x + 3, ba.y + 3);
	await page.mouse.down();
	await page.mouse.move((ba.x + bb.x) / 2 + 3, (ba.y + bb.y) / 2 + 3, { steps: 4 });
	await page.mouse.move(bb.x + 3, bb.y + 3, { steps: 4 });
	await page.mouse.up();
	const what = await page.evaluate(() => document.getElementById('hm-what').textContent);
	const m = /, (\d+) samples \(mycl-hot --time (\S+)\)/.exec(what);
	check(m !== null, `a selection is said: '${what}'`);
	if (m) {
		const want = myclSamples(m[2]);
		check(+m[1] === want, `the slice's ${m[1]} samples are mycl-hot --time ${m[2]}'s ${want}`);
		const flame = await page.evaluate(() => {
			const fr = [...document.querySelectorAll('#hm-flame div.fr')];
			return { n: fr.length, root: fr.length ? +fr[0].dataset.v : -1 };
		});
		check(flame.n > 1 && flame.root === +m[1], `the slice's flame graph: ${flame.n} frames, the root holds ${flame.root}`);
		const flat = await page.evaluate(() => [...document.querySelectorAll('#hm-flat tr td:nth-child(2)')]
			.reduce((s, td) => s + +td.textContent, 0));
		check(flat > 0 && flat <= +m[1], `the slice's flat profile: ${flat} samples in its top rows`);
	}
	const after = await page.locator('#hm-grid').screenshot({ path: path.join(outDir, 'heatmap-selected.png') });
	check(before.length > 500 && !before.equals(after), `the grid's picture changes with the selection (${before.length} bytes)`);
	await page.screenshot({ path: path.join(outDir, 'heatmap-page.png'), fullPage: true });
	check(errors.length === 0, `no script error (${errors.join('; ')})`);
	check(fetched.length === 0, `no fetch beyond the page (${fetched.join(', ')})`);
} finally {
	await browser.close();
}
console.log(`${passes} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
