// e2e.mjs: the default theme in a real browser. playwright-core drives
// Debian's /usr/bin/chromium (headless, fresh profile, no network beyond the
// loopback), over a tiny static server of its own that serves WWW (argv[2]):
//   /          the portal built at the root
//   /portal/   the portal built with --base-url /portal/ (a sub-path deploy)
//   /fixture/  tests/e2e/fixture built with --base-url /fixture/ (code blocks, dates)
//   /crowd/    270 topics (150, the first with 120 subtopics): a pruned sidebar
// It walks home -> topic -> resource -> citing section, searches and opens
// results (at the root and under /portal/), toggles dark mode and reloads,
// checks the print layout of the quick reference and a sidebar pruned to the
// page's branch, runs axe-core on six pages in both schemes, and writes
// screenshots (light/dark x desktop/phone) and a PDF of the quick reference
// into tests/e2e/out/.
// Exit 0 when every check passed; prints "N passed, N failed".
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const www = path.resolve(process.argv[2] || '');
const outDir = path.join(here, 'out');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
if (!process.argv[2] || !fs.existsSync(path.join(www, 'index.html'))) {
  console.error('usage: node e2e.mjs WWW (a built site with portal/ and fixture/ inside)');
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });

// ---- a tiny static server ---------------------------------------------------
const MIME = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.xml': 'application/xml',
  '.txt': 'text/plain', '.png': 'image/png', '.pdf': 'application/pdf',
};
function send(res, status, file) {
  res.writeHead(status, { 'Content-Type': MIME[path.extname(file)] || 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
}
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  let rel = decodeURIComponent(url.pathname);
  const full = path.normalize(path.join(www, rel));
  if (!full.startsWith(www)) { res.writeHead(403); res.end(); return; }
  let file = full;
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) {
    if (!rel.endsWith('/')) { res.writeHead(301, { Location: rel + '/' }); res.end(); return; }
    file = path.join(file, 'index.html');
  }
  if (fs.existsSync(file) && fs.statSync(file).isFile()) { send(res, 200, file); return; }
  const sub = rel.split('/')[1];
  const nf = ['portal', 'fixture'].includes(sub) ? path.join(www, sub, '404.html') : path.join(www, '404.html');
  send(res, 404, nf);
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const origin = `http://127.0.0.1:${server.address().port}`;

// ---- a small test harness ------------------------------------------------------
let passed = 0, failed = 0;
const t0 = Date.now();
async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}\n     ${String(e && e.stack || e).split('\n').slice(0, 4).join('\n     ')}`);
  }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }

// ---- the browser -----------------------------------------------------------------
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ssg-e2e-profile-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
  viewport: { width: 1280, height: 800 },
  colorScheme: 'light',
});
context.setDefaultTimeout(10000);
await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
// no request may leave the site: anything not on our server is refused and counted
const outside = [];
await context.route('**/*', (route) => {
  const u = route.request().url();
  if (u.startsWith(origin + '/') || u.startsWith('data:') || u.startsWith('blob:') ||
      u.startsWith('file://' + www + '/')) return route.continue();
  outside.push(u);
  return route.abort();
});
const pageErrors = [];
const page = context.pages()[0] || await context.newPage();
page.on('pageerror', (e) => pageErrors.push(String(e)));
// failed loads are reported by status below; other console errors count
page.on('console', (m) => { if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) pageErrors.push(m.text()); });
page.on('response', (r) => { if (r.status() >= 400 && !r.url().includes('/no/such/page')) pageErrors.push(`${r.status()} ${r.url()}`); });

const axeSource = fs.readFileSync(path.join(here, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
async function open(p) {
  const r = await page.goto(origin + p);
  assert(r && r.status() === 200, `${p}: status ${r && r.status()}`);
}
async function targetVisible() {
  return page.evaluate(() => {
    const id = decodeURIComponent(location.hash.slice(1));
    const el = document.getElementById(id);
    if (!el) return { ok: false, why: 'no element #' + id };
    const r = el.getBoundingClientRect();
    const header = document.querySelector('.site-header').getBoundingClientRect();
    const below = getComputedStyle(document.querySelector('.site-header')).position === 'sticky' ? header.bottom : 0;
    return { ok: r.top >= below - 2 && r.top < innerHeight, why: `top ${r.top}, header ${below}` };
  });
}
async function waitTarget() {
  await page.waitForFunction(() => location.hash.length > 1);
  // smooth scrolling may still be moving: give it a moment to settle
  await page.waitForTimeout(700);
  const t = await targetVisible();
  assert(t.ok, 'target not in view: ' + t.why);
}

// Pages to screenshot and audit (resource page chosen from the portal itself).
const resourceHref = fs.readdirSync(path.join(www, 'r')).sort()[0];
const pages = {
  home: '/',
  document: '/cuda-basics/',
  topic: '/topic/attention/',
  resource: `/r/${resourceHref}/`,
  'quick-reference': '/quick-reference/',
  'pruned-sidebar': '/crowd/topic/c110/',
  'topics-index': '/crowd/topics/',
};

// ---- 1. home, landmarks, skip link ----------------------------------------------
await check('home page: lang, title, landmarks, favicon, no outside requests', async () => {
  await open('/');
  const info = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    title: document.title,
    h1: document.querySelectorAll('h1').length,
    main: document.querySelectorAll('main#ssg-main').length,
    header: !!document.querySelector('header.site-header'),
    footer: !!document.querySelector('footer.site-footer'),
    nav: document.querySelectorAll('nav[aria-label]').length,
    search: !!document.querySelector('[role=search] input#ssg-search'),
    icon: document.querySelector('link[rel=icon]')?.href,
  }));
  assert(info.lang === 'en', 'lang=' + info.lang);
  assert(info.title.length > 3 && info.h1 === 1 && info.main === 1 && info.header && info.footer, JSON.stringify(info));
  assert(info.nav >= 2 && info.search, JSON.stringify(info));
  const icon = await page.request.get(info.icon);
  assert(icon.status() === 200, 'favicon ' + icon.status());
});

await check('skip link: first Tab stop, visible, moves focus to main; focus is visible', async () => {
  await open('/');
  await page.keyboard.press('Tab');
  const skip = await page.evaluate(() => {
    const a = document.activeElement, r = a.getBoundingClientRect(), cs = getComputedStyle(a);
    return { cls: a.className, href: a.getAttribute('href'), top: r.top, outline: cs.outlineStyle, w: cs.outlineWidth };
  });
  assert(skip.cls === 'skip-link' && skip.href === '#ssg-main', JSON.stringify(skip));
  assert(skip.top >= 0, 'skip link off screen when focused: ' + skip.top);
  assert(skip.outline !== 'none' && skip.w !== '0px', 'no visible focus: ' + JSON.stringify(skip));
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.hash === '#ssg-main');
  // the next Tab goes on inside the page, and its focus ring shows
  await page.keyboard.press('Tab');
  const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert(ring !== 'none', 'focused element has no outline');
});

// ---- 2. topic -> resource -> the citing section ----------------------------------
await check('follow topic -> resource -> citing section of a document', async () => {
  await open('/');
  await page.locator('section[aria-labelledby="ssg-topics-h"] .card a').first().click();
  await page.waitForURL(/\/topic\/[^/]+\/$/);
  const topicUrl = page.url();
  await page.locator('a.resource-more').first().click();
  await page.waitForURL(/\/r\/[^/]+\/$/);
  assert(await page.locator('h1').count() === 1, 'resource page has no h1');
  const cite = page.locator('ul.citations a').first();
  const href = await cite.getAttribute('href');
  assert(/#/.test(href), 'citation link has no section anchor: ' + href);
  await cite.click();
  await waitTarget();
  const where = await page.evaluate(() => document.body.className);
  assert(where.includes('ssg-kind-doc'), 'citation did not open a document: ' + where + ' from ' + topicUrl);
});

// ---- 3. search -------------------------------------------------------------------
async function searchFor(q) {
  await page.keyboard.press('/');
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
  assert(focused === 'ssg-search', '"/" did not focus the search box: ' + focused);
  await page.keyboard.type(q, { delay: 15 });
  await page.locator('#ssg-search-results li a').first().waitFor();
  return page.evaluate(() => [...document.querySelectorAll('#ssg-search-results li a')].map((a) => ({
    href: a.getAttribute('href'), kind: a.querySelector('.search-kind').textContent, text: a.textContent,
  })));
}
await check('search as you type: documents, sections, topics and resources; a section result opens its section', async () => {
  await open('/topic/attention/');
  const res = await searchFor('flash');
  const kinds = new Set(res.map((r) => r.kind.split(' ')[0]));
  assert(kinds.has('Section') && kinds.has('Resource'), 'kinds: ' + [...kinds].join(', '));
  const all = await page.evaluate(async () => {
    const i = await (await fetch(document.body.dataset.root + 'search-index.json')).json();
    return [...new Set(i.map((e) => e[0]))].sort().join('');
  });
  assert(all === 'drst', 'index kinds ' + all);
  const status = await page.locator('#ssg-search-status').textContent();
  assert(/\d+ results/.test(status), 'status: ' + status);
  const sec = page.locator('#ssg-search-results li a', { has: page.locator('.search-kind', { hasText: /^Section/ }) }).first();
  await sec.click();
  await waitTarget();
});
await check('search: Enter opens the first result, arrows move through results, Escape closes', async () => {
  await open('/');
  const res = await searchFor('triton');
  await page.keyboard.press('ArrowDown');
  let f = await page.evaluate(() => document.activeElement.getAttribute('href'));
  assert(f === res[0].href, 'ArrowDown focus ' + f);
  await page.keyboard.press('ArrowDown');
  f = await page.evaluate(() => document.activeElement.getAttribute('href'));
  assert(f === res[1].href, 'second ArrowDown focus ' + f);
  await page.keyboard.press('Escape');
  assert(await page.locator('#ssg-search-results').isHidden(), 'results still shown after Escape');
  await page.locator('#ssg-search').fill('');
  await page.locator('#ssg-search').pressSequentially('cuda', { delay: 10 });
  const first = await page.locator('#ssg-search-results li a').first().getAttribute('href');
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => u.href === new URL(first, origin + '/').href);
  const none = await (async () => { await page.keyboard.press('/'); await page.keyboard.type('zzqqxxnothing'); return page.locator('#ssg-search-results .search-empty').textContent(); })();
  assert(/No results/.test(none), 'no-result message: ' + none);
});
await check('search loads the index in parts: the words and records a query needs, not search-index.json', async () => {
  const asked = [];
  const note = (r) => { if (/search/.test(r.url())) asked.push(new URL(r.url()).pathname); };
  page.on('request', note);
  await open('/');
  const res = await searchFor('flash');
  page.off('request', note);
  assert(res.length > 0, 'no results');
  assert(!asked.some((u) => /search-index/.test(u)), 'fetched the whole index: ' + asked.join(' '));
  assert(asked.includes('/search/index.js'), 'no search/index.js: ' + asked.join(' '));
  assert(asked.some((u) => /^\/search\/w\d+\.js$/.test(u)) && asked.some((u) => /^\/search\/r\d+\.js$/.test(u)),
    'no words or records part: ' + asked.join(' '));
});
await check('search folds case and accents and finds a word inside a mixed-case one', async () => {
  await open('/crowd/');
  await searchFor('resume');
  const results = async (q) => {
    await page.locator('#ssg-search').fill('');
    await page.locator('#ssg-search').pressSequentially(q, { delay: 10 });
    await page.waitForFunction((q) => document.getElementById('ssg-search-status').textContent !== '' &&
      document.getElementById('ssg-search').value === q, q);
    await page.waitForTimeout(100);
    return page.evaluate(() => [...document.querySelectorAll('#ssg-search-results li a')].map((a) => a.textContent));
  };
  let res = await results('resume');
  assert(res.some((t) => t.startsWith('Café Résumé')), '"resume": ' + res.join(' | '));
  res = await results('ØRSTED');
  assert(res.some((t) => t.startsWith('ThunderKittens Ørsted')), '"ØRSTED": ' + res.join(' | '));
  res = await results('kittens');
  assert(res.some((t) => t.startsWith('ThunderKittens')), '"kittens": ' + res.join(' | '));
  const marked = await page.locator('#ssg-search-results li a mark').first().textContent();
  assert(marked === 'Kittens', 'marked ' + marked);
  res = await results('Thunder-Kittens!');
  assert(res.some((t) => t.startsWith('ThunderKittens')), '"Thunder-Kittens!": ' + res.join(' | '));
});
await check('search under a base path (/portal/): results stay under /portal/ and open', async () => {
  await open('/portal/topic/attention/');
  const res = await searchFor('pytorch');
  const link = page.locator('#ssg-search-results li a').first();
  await link.click();
  await page.waitForLoadState('load');
  assert(new URL(page.url()).pathname.startsWith('/portal/'), 'left the base path: ' + page.url());
  assert(res.length > 0, 'no results');
});

await check('search from file:// (no server): the index parts come as scripts', async () => {
  await page.goto('file://' + www + '/cuda-basics/index.html');
  const res = await searchFor('flash');
  assert(res.length > 0, 'no results from file://');
  await page.locator('#ssg-search-results li a').first().click();
  await page.waitForLoadState('load');
  assert(page.url().startsWith('file://' + www + '/'), 'left the site: ' + page.url());
});

// ---- 4. dark mode, remembered, no flash ---------------------------------------------
const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
await check('dark mode toggle: switches, is remembered across reloads and pages, no flash', async () => {
  await open('/');
  const light = await bg();
  assert(light === 'rgb(255, 255, 255)', 'light background ' + light);
  assert(await page.locator('.theme-toggle').getAttribute('aria-pressed') === 'false', 'aria-pressed');
  await page.locator('.theme-toggle').click();
  assert(await page.evaluate(() => document.documentElement.dataset.theme) === 'dark', 'no data-theme=dark');
  const dark = await bg();
  assert(dark !== light, 'background did not change');
  // on reload the scheme must be set before the body exists (no flash of light)
  await page.addInitScript(() => {
    new MutationObserver((muts, obs) => {
      if (document.body) {
        window.__themeAtBody = document.documentElement.getAttribute('data-theme');
        obs.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.reload();
  assert(await page.evaluate(() => window.__themeAtBody) === 'dark', 'theme not set before <body>');
  assert(await bg() === dark, 'dark not remembered');
  assert(await page.locator('.theme-toggle').getAttribute('aria-pressed') === 'true', 'aria-pressed after reload');
  await open('/quick-reference/');
  assert(await bg() === dark, 'dark not remembered on another page');
  await page.locator('.theme-toggle').click();
  await page.reload();
  assert(await bg() === light, 'light not remembered');
});
await check('prefers-color-scheme: dark is followed when nothing is remembered', async () => {
  await page.evaluate(() => localStorage.removeItem('ssg-theme'));
  await page.emulateMedia({ colorScheme: 'dark' });
  await open('/');
  assert(await bg() !== 'rgb(255, 255, 255)', 'dark scheme not followed');
  await page.emulateMedia({ colorScheme: 'light' });
});

// ---- 5. page furniture on the fixture: code blocks, copy, dates, edit, anchors ---------
await check('code blocks: language label, copy button copies the code; anchors, last updated, edit link', async () => {
  await open('/fixture/code/');
  const labels = await page.locator('.code-lang').allTextContents();
  assert(labels.join(',') === 'python,bash', 'labels ' + labels);
  assert(await page.locator('div.code .copy').count() === 3, 'copy buttons');
  await page.locator('div.code[data-lang=python] .copy').click();
  await page.waitForFunction(() => document.querySelector('div.code[data-lang=python] .copy').textContent === 'Copied');
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  assert(clip.trim() === 'def add(a, b):\n    return a + b', 'clipboard: ' + JSON.stringify(clip));
  const anchors = await page.evaluate(() => [...document.querySelectorAll('main h2')].map((h) => [h.id, h.querySelector('a.anchor')?.getAttribute('href')]));
  assert(anchors.length >= 3 && anchors.every(([id, a]) => a === '#' + id), 'anchors ' + JSON.stringify(anchors));
  const updated = await page.locator('.doc-meta time').getAttribute('datetime');
  assert(updated === '2024-05-01', 'updated ' + updated);
  const shown = await page.locator('.doc-meta time').textContent();
  assert(shown === '1 May 2024', 'updated shown as ' + shown);
  const edit = await page.locator('a.edit-link').getAttribute('href');
  assert(edit === 'https://example.org/git/fixture/edit/main/content/code.md', 'edit ' + edit);
});
await check('404 page under a base path has the theme and working links', async () => {
  const r = await page.goto(origin + '/fixture/no/such/page/');
  assert(r.status() === 404, 'status ' + r.status());
  assert(await page.locator('h1').textContent() === 'Page not found', 'h1');
  const bgc = await bg();
  assert(bgc === 'rgb(255, 255, 255)', 'stylesheet not loaded on the 404 page: ' + bgc);
  await page.locator('main a', { hasText: 'home page' }).click();
  await page.waitForURL(origin + '/fixture/');
});

// ---- 5b. a sidebar pruned to the page's branch -----------------------------------------
await check('a pruned sidebar: the page\'s topic in view, its branch open, links to all', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open('/crowd/topic/c110/');
  const s = await page.evaluate(() => {
    const bar = document.querySelector('.sidebar');
    const cur = bar.querySelector('[aria-current="page"]');
    const a = cur.getBoundingClientRect(), b = bar.getBoundingClientRect();
    const more = [...bar.querySelectorAll('li.more > a')].map((x) => [x.textContent, new URL(x.href).pathname + new URL(x.href).hash]);
    return { text: cur.textContent, inView: a.top >= b.top && a.bottom <= b.bottom,
             scrolls: bar.scrollHeight > bar.clientHeight, entries: bar.querySelectorAll('li').length, more };
  });
  assert(s.text === 'Child 110', 'current ' + s.text);
  assert(s.scrolls && s.inView, `the current topic out of the sidebar's view (scrolls: ${s.scrolls})`);
  // 100 top-level topics and 100 subtopics, the page's own, two links to all
  assert(s.entries === 203, 'sidebar entries ' + s.entries);
  assert(JSON.stringify(s.more) === JSON.stringify([['All subtopics', '/crowd/topics/#ssg-topic-t0'],
                                                    ['All topics', '/crowd/topics/']]), 'links to all ' + JSON.stringify(s.more));
  // the link to all subtopics: the parent's entry in the topics index, in
  // view, its 120 subtopics after it
  await page.locator('.sidebar li.more > a', { hasText: 'All subtopics' }).click();
  await page.waitForURL(origin + '/crowd/topics/#ssg-topic-t0');
  await waitTarget();
  const after = await page.evaluate(() => {
    const li = [...document.querySelectorAll('.topic-index > li')];
    const at = li.findIndex((x) => x.id === 'ssg-topic-t0');
    return li.slice(at + 1, at + 121).filter((x) => x.querySelector('.trail')).length;
  });
  assert(after === 120, 'subtopics after their parent in the index: ' + after);
});

// ---- 6. print layout of the quick reference --------------------------------------------
await check('quick reference prints cleanly (print media, PDF)', async () => {
  await open('/quick-reference/');
  await page.emulateMedia({ media: 'print' });
  const p = await page.evaluate(() => {
    const hidden = (sel) => [...document.querySelectorAll(sel)].every((e) => getComputedStyle(e).display === 'none');
    const link = document.querySelector('.resource-link');
    return {
      chrome: hidden('.site-header, .sidebar, .site-footer, .theme-toggle, .skip-link'),
      after: getComputedStyle(link, '::after').content,
      href: link.getAttribute('href'),
      color: getComputedStyle(document.body).color,
      bg: getComputedStyle(document.body).backgroundColor,
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      items: document.querySelectorAll('li.resource').length,
    };
  });
  assert(p.chrome, 'site chrome still shown in print');
  assert(p.after.includes(p.href), 'printed links do not show their URL: ' + p.after);
  assert(p.color === 'rgb(0, 0, 0)' && p.bg === 'rgb(255, 255, 255)', `print colours ${p.color} on ${p.bg}`);
  assert(p.overflow <= 0, 'print layout overflows by ' + p.overflow + 'px');
  assert(p.items > 20, 'few items: ' + p.items);
  await page.screenshot({ path: path.join(outDir, 'quick-reference-print.png'), fullPage: false });
  const pdf = await page.pdf({ path: path.join(outDir, 'quick-reference.pdf'), format: 'A4', printBackground: true });
  assert(pdf.length > 10000, 'tiny PDF');
  await page.emulateMedia({ media: 'screen' });
});
await check('the quick reference prints dark-mode readers black on white', async () => {
  await page.evaluate(() => localStorage.setItem('ssg-theme', 'dark'));
  await open('/quick-reference/');
  await page.emulateMedia({ media: 'print' });
  const c = await page.evaluate(() => [getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor]);
  assert(c[0] === 'rgb(0, 0, 0)' && c[1] === 'rgb(255, 255, 255)', 'dark print colours ' + c);
  await page.emulateMedia({ media: 'screen' });
  await page.evaluate(() => localStorage.removeItem('ssg-theme'));
});

// ---- 7. axe-core and screenshots, light and dark, desktop and phone ----------------------
const sizes = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
for (const scheme of ['light', 'dark']) {
  await page.emulateMedia({ colorScheme: scheme });
  for (const [name, p] of Object.entries(pages)) {
    await check(`axe (${scheme}): no serious or critical violation on ${name}`, async () => {
      await page.setViewportSize(sizes.desktop);
      await open(p);
      await page.addScriptTag({ content: axeSource });
      const v = await page.evaluate(async () => {
        const r = await window.axe.run(document, { resultTypes: ['violations'] });
        return r.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')
          .map((x) => `${x.id} (${x.impact}): ${x.nodes.length} node(s), e.g. ${x.nodes[0].target.join(' ')}`);
      });
      assert(v.length === 0, v.join('\n'));
    });
    for (const [size, vp] of Object.entries(sizes)) {
      await check(`screenshot ${name} ${scheme} ${size}: fits the width`, async () => {
        await page.setViewportSize(vp);
        await open(p);
        const over = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        await page.screenshot({ path: path.join(outDir, `${name}-${scheme}-${size}.png`) });
        assert(over <= 0, `scrolls sideways by ${over}px`);
      });
    }
  }
}
await page.setViewportSize(sizes.desktop);

await check('no request left the site, no script errors', async () => {
  assert(outside.length === 0, 'outside requests: ' + outside.slice(0, 5).join(', '));
  assert(pageErrors.length === 0, 'page errors: ' + pageErrors.slice(0, 5).join(' | '));
});

await context.close();
server.close();
fs.rmSync(profile, { recursive: true, force: true });
console.log(`e2e: ${passed} passed, ${failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots in ${path.relative(process.cwd(), outDir) || outDir})`);
process.exit(failed ? 1 : 0);
