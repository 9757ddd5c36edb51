import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core's script as it is shipped. It is evaluated in the page rather than added as a <script> tag: the app's
 * Content-Security-Policy (script-src 'self') rightly refuses inline scripts, and a test must not weaken it.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** The CSS selectors of the offending elements. */
  targets: string[];
}

export interface AxeOptions {
  /** Rules to run, e.g. `['aria-hidden-focus']`; all of axe's WCAG rules when left out. */
  rules?: string[];
  /** The impacts that count; serious and critical by default. */
  impacts?: readonly string[];
  /** Limit the check to part of the page. */
  within?: string;
}

/**
 * Runs axe-core (https://github.com/dequelabs/axe-core) on the page as it is now and returns the violations of
 * the given impacts, in a shape that reads well in a failed assertion. Any route can be checked this way:
 * `expect(await axeViolations(page)).toEqual([])`.
 */
export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<AxeViolation[]> {
  const impacts = options.impacts ?? ['serious', 'critical'];
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    async ({ rules, within }) => {
      const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
      const result = await axe.run(within ? { include: [within] } : document, {
        resultTypes: ['violations'],
        ...(rules ? { runOnly: { type: 'rule', values: rules } } : {}),
      });
      return result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? null,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
    },
    { rules: options.rules, within: options.within },
  );
  return violations.filter((violation) => violation.impact !== null && impacts.includes(violation.impact));
}
