/**
 * Anonymous internet, what the program shows to anyone (docs/security.md): in production the API
 * documentation is not served unless the operator asks for it, and the content security policy lets
 * a page talk only to its own origin, WebSockets included (CSP Level 3: 'self' matches ws: and wss: of
 * the page's own host and port), so injected script cannot send data to another host.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DOC_PATHS = ['/api/docs', '/api/docs/', '/api/docs/openapi.json', '/api/docs-json', '/api/docs-yaml'];

function directives(policy: string | null): Map<string, string[]> {
  return new Map(
    (policy ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('anonymous internet: the public surface of a production deployment', () => {
  let production: TestApp;
  let documented: TestApp;

  beforeAll(async () => {
    // The machine's Redis has no persistence: the operator of these tests accepts that knowingly.
    production = await createTestApp({ NODE_ENV: 'production', ALLOW_VOLATILE_REDIS: 'true' });
    documented = await createTestApp({ NODE_ENV: 'production', ALLOW_VOLATILE_REDIS: 'true', API_DOCS: 'true' });
  }, 90_000);
  afterAll(async () => {
    await production?.close();
    await documented?.close();
  }, 30_000);

  it('does not serve the API documentation in production', async () => {
    for (const path of DOC_PATHS) {
      const res = await fetch(`${production.baseUrl}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      const text = await res.text();
      expect(text).not.toMatch(/swagger|openapi/i);
    }
  }, 30_000);

  it('serves the API documentation in production when the operator sets API_DOCS=true', async () => {
    expect((await fetch(`${documented.baseUrl}/api/docs`)).status).toBe(200);
    const doc = await fetch(`${documented.baseUrl}/api/docs/openapi.json`);
    expect(doc.status).toBe(200);
    expect(Object.keys(((await doc.json()) as { paths: object }).paths)).toContain('/api/login');
  }, 30_000);

  it('lets pages connect only to their own origin: no WebSocket to any host', async () => {
    for (const path of ['/api/health', '/api/no-such-endpoint', '/', '/no-such-page']) {
      const res = await fetch(`${production.baseUrl}${path}`);
      const csp = directives(res.headers.get('content-security-policy'));
      // Where connect-src is absent, default-src governs connections.
      const connect = csp.get('connect-src') ?? csp.get('default-src');
      expect({ path, connect }).toEqual({ path, connect: [expect.stringMatching(/^'(self|none)'$/)] });
    }
    const api = directives((await fetch(`${production.baseUrl}/api/health`)).headers.get('content-security-policy'));
    expect(api.get('connect-src')).toEqual(["'self'"]);
  }, 30_000);

  (existsSync(CHROMIUM) ? describe : describe.skip)('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
    }, 60_000);
    afterAll(() => browser?.close(), 30_000);

    it('opens the live WebSocket to the page’s own origin and refuses one to another host', async () => {
      const page = await browser.newPage();
      try {
        await page.goto(`${production.baseUrl}/api/health`);
        const port = new URL(production.baseUrl).port;
        // 127.0.0.2 reaches the same server (all of 127/8 is loopback) but is another origin.
        const outcome = await page.evaluate(
          async ({ port }) => {
            const violations: string[] = [];
            document.addEventListener('securitypolicyviolation', (e) => violations.push(e.blockedURI));
            const attempt = (url: string) =>
              new Promise<string>((resolve) => {
                try {
                  const ws = new WebSocket(url);
                  const timer = setTimeout(() => resolve('pending'), 5_000);
                  ws.onopen = () => {
                    clearTimeout(timer);
                    ws.close();
                    resolve('open');
                  };
                  ws.onerror = () => {
                    clearTimeout(timer);
                    resolve('error');
                  };
                } catch (error) {
                  resolve(`thrown: ${(error as Error).name}`);
                }
              });
            const path = '/socket.io/?EIO=4&transport=websocket';
            const own = await attempt(`ws://127.0.0.1:${port}${path}`);
            const foreign = await attempt(`ws://127.0.0.2:${port}${path}`);
            await new Promise((r) => setTimeout(r, 200));
            return { own, foreign, violations };
          },
          { port },
        );
        expect(outcome.own).toBe('open');
        expect(outcome.foreign).not.toBe('open');
        expect(outcome.violations).toEqual([expect.stringContaining('127.0.0.2')]);
      } finally {
        await page.close();
      }
    }, 60_000);
  });
});
