import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { graphqlFeature } from '../../src/graphql/feature';
import { startTestServer, TestServer } from '../helpers/testServer';
import { expectedOrder } from './fixtures';
import { syntheticPools } from '../fakes/syntheticPools';

/**
 * GraphiQL in a real headless Chromium (the Debian `chromium` package): the page loads with no
 * request leaving the service (no CDN), a typed pools query runs, and its results show.
 */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// In CI the browser must be there (.ci/run installs it); elsewhere a missing browser skips, saying why.
const describeBrowser: jest.Describe =
  existsSync(CHROMIUM) || process.env.CI
    ? describe
    : (((name: string, fn: () => void) =>
        describe.skip(
          `${name} (skipped: ${CHROMIUM} is absent; install it with 'apt-get install -y chromium', CI always runs this)`,
          fn,
        )) as unknown as jest.Describe);

interface PageDocument {
  querySelector(selector: string): { innerText: string } | null;
}

/**
 * Waits until the element's text contains `needle` (and not `absent`), whitespace ignored (the
 * editors wrap long lines). A function, not a string: the page's CSP forbids eval, as it should.
 */
async function waitForText(page: Page, selector: string, needle: string, absent = ''): Promise<void> {
  await page.waitForFunction(
    ([sel, want, not]) => {
      const doc = (globalThis as unknown as { document: PageDocument }).document;
      const text = (doc.querySelector(sel as string)?.innerText ?? '').replace(/\s+/g, '');
      return text.includes((want as string).replace(/\s+/g, '')) && (not === '' || !text.includes(not as string));
    },
    [selector, needle, absent],
    { timeout: 60_000 },
  );
}

describeBrowser('GraphiQL in headless Chromium', () => {
  let server: TestServer;
  let browser: BrowserContext;
  let profileDir: string;
  const pools = syntheticPools(40);

  beforeAll(async () => {
    server = await startTestServer({ NETWORKS: '1' }, { seed: [{ chainId: 1, pools }], features: [graphqlFeature] });
    profileDir = mkdtempSync(join(tmpdir(), 'bps-chromium-'));
    browser = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  it('opens /graphql, runs a pools query and shows the pools', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    const pageErrors: string[] = [];
    page.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(server.url) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
    });
    page.on('pageerror', (e) => pageErrors.push(e.message));

    await page.goto(`${server.url}/graphql`);
    // Ready when the editor shows the service's example query (a fresh profile has no saved tabs).
    await waitForText(page, '.graphiql-query-editor', 'query TopPools');
    expect(await page.title()).toBe('Balancer pools GraphQL');

    const query = `query StablePools { pools(chainId: 1, first: 2, where: { poolType: { eq: "Stable" } }) { pools { id poolType } } }`;
    await page.locator('.graphiql-query-editor .monaco-editor').first().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(query);
    // The editor closes brackets by itself; drop whatever it added after the typed text.
    await page.keyboard.press('Shift+Control+End');
    await page.keyboard.press('Delete');
    await waitForText(page, '.graphiql-query-editor', 'eq: "Stable"', 'TopPools');
    // GraphiQL takes the operation name from the editor a moment later; its tab shows when it has.
    await waitForText(page, '.graphiql-tabs', 'StablePools');

    const answered = page.waitForResponse(
      (r) => r.url().startsWith(`${server.url}/graphql`) && (r.request().postData() ?? '').includes('Stable'),
    );
    await page.locator('.graphiql-execute-button').click();
    const response = await answered;
    const expected = expectedOrder(
      pools.filter((p) => p.poolType === 'Stable'),
      (p) => p.totalLiquidity,
      'desc',
    ).slice(0, 2);
    expect(await response.json()).toEqual({
      data: { pools: { pools: expected.map((id) => ({ id, poolType: 'Stable' })) } },
    });

    // What the user sees: the result pane lists both pools (long ids wrap, so compare without spaces).
    await waitForText(page, '.graphiql-response', `"id":"${expected[0]}"`);
    const text = (await page.locator('.graphiql-response').innerText()).replace(/\s+/g, '');
    expect(text).toContain(`"id":"${expected[0]}"`);
    expect(text).toContain(`"id":"${expected[1]}"`);

    expect(foreign).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
