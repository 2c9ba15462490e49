import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT } from '../helpers/paths.js';
import { run, tempDir } from '../helpers/project.js';

/** Debian's chromium; .ci/run installs it when missing. Playwright's own browser download is not used. */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

if (!existsSync(CHROMIUM)) {
  // Loud on purpose: a skipped browser test must not pass unnoticed.
  console.error(`\n*** plan --html browser test SKIPPED: ${CHROMIUM} is missing (apt-get install -y chromium) ***\n`);
}

describe.skipIf(!existsSync(CHROMIUM))('plan --html in a real headless browser', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
    dir = await tempDir('plan-html');
    await mkdir(dir, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders tools, actions, token bars, headers and warnings, runs no injected script and fetches nothing', async () => {
    // A vendor description with routing headers (Xero's tenant header), plus a hostile one for the escaping.
    const xero = path.join(dir, 'xero.html');
    const result = await run(
      process.execPath,
      [BIN, 'plan', path.join(REPO_ROOT, 'samples/xero-accounting/openapi.yaml'), '--html', xero, '--quiet'],
      {
        cwd: dir,
        env: { NO_COLOR: '1' },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const hostileSpec = path.join(dir, 'hostile.yaml');
    await writeFile(
      hostileSpec,
      [
        'openapi: 3.0.3',
        "info: { title: '<script>window.__pwned = 1</script>', version: '1' }",
        'paths:',
        '  /a:',
        '    get:',
        '      operationId: getA',
        `      summary: '<img src=x onerror="window.__pwned = 2">'`,
        '      description: "<script>window.__pwned = 3</script><link rel=stylesheet href=http://127.0.0.1:9/x.css>"',
        '      responses: { "200": { description: ok } }',
      ].join('\n'),
    );
    const hostile = path.join(dir, 'hostile.html');
    expect((await run(process.execPath, [BIN, 'plan', hostileSpec, '--html', hostile, '--quiet'], { cwd: dir })).code).toBe(0);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });

    await page.goto(pathToFileURL(xero).href);
    const tools = page.locator('li.tool');
    const count = await tools.count();
    expect(count).toBeGreaterThan(10);
    await expect.poll(() => page.locator('[data-testid="total-tools"] .value').textContent()).toBe(String(count));
    expect(await page.locator('.bar[role="meter"]').count()).toBe(count);
    expect(await page.locator('.stack .segment').count()).toBe(count);
    expect(await page.locator('.badge.read').count()).toBeGreaterThan(0);
    // Xero's tenant header is marked: the headers block is there once a tool is opened.
    await page.locator('#toggle').click();
    expect(await page.locator('.headers li.marked').first().isVisible()).toBe(true);
    expect(await page.locator('.headers li.marked').first().textContent()).toContain('Mcp-Param-');
    expect(await page.locator('table.actions tbody tr').count()).toBeGreaterThan(count);
    // The filter hides what does not match and leaves the rest.
    const first = (await tools.first().getAttribute('data-name')) as string;
    await page.locator('#filter').fill(first);
    expect(await page.locator('li.tool:visible').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('li.tool:visible').count()).toBeLessThan(count);
    await page.locator('#filter').fill('');
    await page.locator('#toggle').click();

    const screenshot = await page.screenshot({ fullPage: true });
    await writeFile(path.join(dir, 'xero.png'), screenshot);
    const size = pngSize(screenshot);
    expect(size.width).toBe(1280);
    expect(size.height).toBeGreaterThan(900);
    expect(screenshot.length).toBeGreaterThan(40_000);

    await page.goto(pathToFileURL(hostile).href);
    expect(await page.locator('h1').textContent()).toContain('<script>window.__pwned = 1</script>');
    // The page's global object, seen from the page (the test's tsconfig has no DOM types).
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img, link[rel="stylesheet"]').count()).toBe(0);

    // Only the two pages themselves were requested: no fonts, scripts, styles or images from anywhere.
    expect(requests).toStrictEqual([pathToFileURL(xero).href, pathToFileURL(hostile).href]);
    expect(errors).toStrictEqual([]);
    await page.close();
  });
});
