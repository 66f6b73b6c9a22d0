// serve_live.mjs: `ssg serve`'s live reload in a real browser. Starts
// `SSG serve` on SITE (argv[2], a copy of the portal it may edit), opens two
// pages in Debian's chromium (headless), then edits documents as a
// contributor would and checks which pages reload:
//   - an entry's words: its document's page shows them, reloaded once (the
//     preview; the build after it leaves the page as it was); the other
//     page, which neither changed, does not reload;
//   - a new link: its page shows it; the page reloads again once the whole
//     build gives the link its badge;
//   - a link inserted among the others: shown at once, and with its badge
//     after the whole build;
//   - a heading: previewed too;
//   - front matter: a whole build, no preview: every open page reloads.
// Exit 0 when every check passed; prints "N passed, N failed".
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [ssg, site] = process.argv.slice(2);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
if (!ssg || !site || !fs.existsSync(path.join(site, 'site.yml'))) {
  console.error('usage: node serve_live.mjs SSG SITE (a copy of the portal)');
  process.exit(2);
}

const serve = spawn(ssg, ['serve', '-s', site, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
let log = '';
serve.stderr.on('data', (d) => { log += d; });
const origin = await new Promise((ok, fail) => {
  let out = '';
  const t = setTimeout(() => fail(new Error('serve did not start')), 30000);
  serve.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/Serving at (http:\/\/127\.0\.0\.1:\d+)\//);
    if (m) { clearTimeout(t); ok(m[1]); }
  });
});

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ssg-serve-live-profile-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
});
context.setDefaultTimeout(10000);
const pageErrors = [];
async function open(rel) {
  const p = await context.newPage();
  p.loads = 0;
  p.on('load', () => { p.loads++; });
  p.on('pageerror', (e) => pageErrors.push(String(e)));
  await p.goto(origin + rel);
  // the page's event stream is open once the server has its request
  await p.waitForTimeout(300);
  return p;
}

let passed = 0, failed = 0;
async function check(name, fn) {
  try { await fn(); passed++; console.log('ok   ' + name); }
  catch (e) { failed++; console.log('FAIL ' + name + ': ' + e.message); }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }

const builds = () => (log.match(/^built /gm) || []).length;
const previews = () => (log.match(/^previewed in /gm) || []).length;
async function settled(before) {
  // the build after the edit is done, and a reload it caused has come
  for (let i = 0; i < 500 && builds() === before; i++) await new Promise((r) => setTimeout(r, 10));
  assert(builds() > before, 'no build after the edit');
  await new Promise((r) => setTimeout(r, 800));
}
function edit(rel, change) {
  const f = path.join(site, 'content', rel);
  fs.writeFileSync(f, change(fs.readFileSync(f, 'utf8')));
}

const doc = 'cuda-mode-resource-stream.md';
const edited = await open('/cuda-mode-resource-stream/');
const other = await open('/cuda-basics/');

await check("an entry's words: previewed, the page reloads once, the other not at all", async () => {
  const [b, p, e, o] = [builds(), previews(), edited.loads, other.loads];
  edit(doc, (t) => t.replace('(https://developer.nvidia.com/blog/even-easier-introduction-cuda/)',
                             '(https://developer.nvidia.com/blog/even-easier-introduction-cuda/) - edited words'));
  await edited.waitForFunction(() => document.body.textContent.includes('edited words'));
  await settled(b);
  assert(previews() === p + 1, 'serve did not preview it');
  assert(edited.loads === e + 1, `the edited page loaded ${edited.loads - e} times`);
  assert(other.loads === o, `the other page loaded ${other.loads - o} times`);
});

await check('a new link: shown at once, and reloaded with its badge', async () => {
  const [b, p, e] = [builds(), previews(), edited.loads];
  const url = 'https://example.org/a-link-added-in-a-browser-test';
  edit(doc, (t) => t + `\n- [Added in a browser test](${url}) - new\n`);
  await edited.waitForFunction((u) => !!document.querySelector(`a[href="${u}"]`), url);
  await settled(b);
  assert(previews() === p + 1, 'serve did not preview it');
  assert(edited.loads >= e + 1, 'the edited page did not reload');
  const badge = await edited.evaluate((u) => {
    const a = document.querySelector(`a[href="${u}"]`);
    const next = a && a.nextElementSibling;
    return !!next && next.classList.contains('cites');
  }, url);
  assert(badge, 'the new link has no badge after the whole build');
});

await check('a link inserted among the others: shown at once, then with its badge', async () => {
  const [b, p] = [builds(), previews()];
  const badges = await edited.evaluate(() => document.querySelectorAll('a.cites').length);
  const url = 'https://example.org/a-link-inserted-in-a-browser-test';
  edit(doc, (t) => t.replace('- [An Even Easier Introduction to CUDA]',
                             `- [Inserted in a browser test](${url})\n- [An Even Easier Introduction to CUDA]`));
  // the first page that shows it: the preview's, or the whole build's on a
  // quick machine (which badges the preview kept: test_html, test_e2e)
  await edited.waitForFunction((u) => !!document.querySelector(`a[href="${u}"]`), url);
  await settled(b);
  assert(previews() === p + 1, 'serve did not preview it');
  const after = await edited.evaluate(() => document.querySelectorAll('a.cites').length);
  assert(after === badges + 1, `${after} badges after the whole build, ${badges} before`);
});

await check('a heading: previewed', async () => {
  const [b, p] = [builds(), previews()];
  edit(doc, (t) => t + '\n## A heading added in a browser test\n\nText.\n');
  await edited.waitForFunction(() => document.body.textContent.includes('A heading added in a browser test'));
  await settled(b);
  assert(previews() === p + 1, 'serve did not preview it');
});

await check('front matter: no preview, every open page reloads', async () => {
  const [b, p, e, o] = [builds(), previews(), edited.loads, other.loads];
  edit(doc, (t) => '---\ntitle: Retitled in a browser test\n---\n' + t);
  await edited.waitForFunction(() => document.title.includes('Retitled in a browser test'));
  await settled(b);
  assert(previews() === p, 'a front matter edit was previewed');
  assert(edited.loads > e, 'the edited page did not reload');
  assert(other.loads > o, 'the other page did not reload after a whole build');
});

await check('no script errors', async () => {
  assert(pageErrors.length === 0, pageErrors.join('; '));
});

await context.close();
fs.rmSync(profile, { recursive: true, force: true });
serve.kill('SIGTERM');
await new Promise((r) => serve.on('exit', r));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
