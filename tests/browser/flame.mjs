// SPDX-License-Identifier: LGPL-2.1-or-later
// Loads mycl's flame graph (SVG) and HTML page in headless Chromium as a
// person would: clicks a frame and checks the zoom, resets it, searches and
// checks the share found against the folded stacks, hovers for the details
// line; the HTML page must make no fetch beyond its own file.  Screenshots go
// to OUTDIR.
// usage: node flame.mjs SVG FOLDED FUNCTION OUTDIR [HTML]
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [svgPath, foldedPath, fn, outDir, htmlPath] = process.argv.slice(2);
let failures = 0, passes = 0;
function check(ok, what) {
	if (ok) { passes++; console.log(`ok - ${what}`); }
	else { failures++; console.log(`not ok - ${what}`); }
}
function escRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

// The share of samples whose stack holds a frame named FN exactly, from the folded stacks.
function foldedShare(text, name) {
	let all = 0, hit = 0;
	for (const line of text.split('\n')) {
		const m = /^(.*) (\d+)$/.exec(line);
		if (!m) continue;
		const n = +m[2];
		all += n;
		// folded names replace ' ' and ';' (mycl-hot --folded): compare the same way
		const want = name.replace(/;/g, ':').replace(/ /g, '_');
		if (m[1].split(';').slice(1).some(f => f === want || f === want + '_[k]')) hit += n;
	}
	return all ? 100 * hit / all : 0;
}

async function flameChecks(page, label) {
	const W = await page.evaluate(() => +document.getElementById('fg-svg').getAttribute('data-width'));
	const info = await page.evaluate((name) => {
		const gs = [...document.querySelectorAll('.fg-f')];
		const g = gs.filter(g => g.getAttribute('data-n') === name)
			.sort((a, b) => a.querySelector('rect').getAttribute('width') - b.querySelector('rect').getAttribute('width'))[0];
		if (!g) return null;
		g.id = 'fg-test-target';
		const r = g.querySelector('rect');
		return { n: gs.length, x: +r.getAttribute('x'), w: +r.getAttribute('width'), d: +g.getAttribute('data-d') };
	}, fn);
	check(info !== null, `${label}: a frame named ${fn}`);
	if (!info) return;
	const box = await page.locator('#fg-test-target rect').boundingBox();
	await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
	const details = await page.evaluate(() => document.getElementById('fg-details').textContent);
	check(details.startsWith(fn + ' ('), `${label}: hovering names the frame ('${details}')`);
	await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
	const z = await page.evaluate((x0) => {
		const svg = document.getElementById('fg-svg');
		const t = document.getElementById('fg-test-target');
		const gs = [...document.querySelectorAll('.fg-f')];
		const shown = gs.filter(g => !g.classList.contains('fg-hide'));
		const wide = shown.filter(g => +g.querySelector('rect').getAttribute('width') > 0);
		return {
			zoomed: svg.getAttribute('data-zoomed'),
			w: +t.querySelector('rect').getAttribute('width'),
			x: +t.querySelector('rect').getAttribute('x'),
			hidden: gs.length - shown.length,
			parents: gs.filter(g => g.classList.contains('fg-parent')).length,
			reset: !document.getElementById('fg-reset').classList.contains('fg-hide'),
			depthsOk: shown.every(g => g.classList.contains('fg-parent') ||
				+g.getAttribute('data-d') >= +t.getAttribute('data-d')),
			inside: wide.every(g => +g.querySelector('rect').getAttribute('x') >= 9.9 &&
				+g.querySelector('rect').getAttribute('x') + +g.querySelector('rect').getAttribute('width') <= +svg.getAttribute('data-width') - 9.9),
		};
	});
	check(z.zoomed === fn, `${label}: the click zoomed on ${fn}`);
	check(Math.abs(z.w - (W - 20)) < 0.2 && Math.abs(z.x - 10) < 0.2,
		`${label}: the clicked frame spans the width (x ${z.x}, width ${z.w} of ${W - 20})`);
	check(info.w >= W - 20 - 0.2 || z.hidden > 0, `${label}: frames outside the zoom are hidden (${z.hidden})`);
	check(z.parents === info.d, `${label}: its ${info.d} callers shown as bars (${z.parents})`);
	check(z.depthsOk && z.inside, `${label}: what is shown is the frame, its callers and callees, inside the view`);
	check(z.reset, `${label}: 'Reset zoom' offered`);
	await page.screenshot({ path: path.join(outDir, `${label}-zoomed.png`) });
	await page.click('#fg-reset');
	const back = await page.evaluate(() => ({
		w: +document.getElementById('fg-test-target').querySelector('rect').getAttribute('width'),
		hidden: document.querySelectorAll('.fg-f.fg-hide').length,
	}));
	check(Math.abs(back.w - info.w) < 0.2 && back.hidden === 0, `${label}: reset restores the graph`);
	// Search: the share matched must be the folded stacks' share of paths through FN.
	page.once('dialog', d => d.accept('^' + escRe(fn) + '$'));
	await page.click('#fg-search');
	const matched = await page.evaluate(() => document.getElementById('fg-matched').textContent);
	const want = foldedShare(fs.readFileSync(foldedPath, 'utf8'), fn);
	const got = /Matched: ([0-9.]+)%/.exec(matched);
	check(got && Math.abs(+got[1] - want) < 0.06,
		`${label}: search for ${fn} matches ${got ? got[1] : '?'}%, the folded stacks ${want.toFixed(2)}%`);
	const pink = await page.evaluate((name) => [...document.querySelectorAll('.fg-f')]
		.filter(g => g.getAttribute('data-n') === name)
		.every(g => g.querySelector('rect').getAttribute('fill') === 'rgb(230,0,230)'), fn);
	check(pink, `${label}: every ${fn} frame highlighted`);
	await page.screenshot({ path: path.join(outDir, `${label}-search.png`) });
}

const browser = await chromium.launch({
	executablePath: process.env.MYCL_CHROMIUM || '/usr/bin/chromium',
	args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
	const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
	const errors = [];
	page.on('pageerror', e => errors.push(String(e)));
	await page.goto(pathToFileURL(path.resolve(svgPath)).href);
	await flameChecks(page, 'svg');
	check(errors.length === 0, `svg: no script error (${errors.join('; ')})`);
	if (htmlPath) {
		const hp = await browser.newPage({ viewport: { width: 1280, height: 800 } });
		const herr = [], fetched = [];
		hp.on('pageerror', e => herr.push(String(e)));
		const self = pathToFileURL(path.resolve(htmlPath)).href;
		hp.on('request', r => { if (r.url() !== self) fetched.push(r.url()); });
		await hp.goto(self);
		await flameChecks(hp, 'html');
		const sections = await hp.evaluate(() => [...document.querySelectorAll('h2')].map(h => h.textContent));
		check(sections.length >= 3, `html: sections ${JSON.stringify(sections)}`);
		const rows = await hp.evaluate(() => document.querySelectorAll('table.mycl-flat tbody tr').length);
		check(rows > 0, `html: the flat profile table has ${rows} rows`);
		check(fetched.length === 0, `html: no fetch beyond the page (${fetched.join(', ')})`);
		// the header's warnings wrap at the page's edge: nothing hidden past a scroll bar
		const clipped = await hp.evaluate(() => [...document.querySelectorAll('pre.wrap')]
			.filter(p => p.scrollWidth > p.clientWidth + 1).length);
		const warned = await hp.evaluate(() => [...document.querySelectorAll('pre.wrap')]
			.some(p => p.textContent.includes('WARNING')));
		check(warned && clipped === 0, `html: header and summary wrap (${clipped} clipped; warnings ${warned})`);
		check(herr.length === 0, `html: no script error (${herr.join('; ')})`);
		await hp.screenshot({ path: path.join(outDir, 'html-page.png'), fullPage: true });
	}
} finally {
	await browser.close();
}
console.log(`${passes} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
