import type { Page } from 'playwright-core';

/**
 * Picks the app's language with the page's language select. For a signed-in user the choice is also saved on the
 * server (docs/web-app.md, "Behaviour") and comes back at their next sign-in, so this waits for that save: a test
 * that switched a shared account to Kiswahili switches it back before the next test signs in.
 */
export async function chooseLanguage(page: Page, language: 'en' | 'sw'): Promise<void> {
  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/api/user/language') && response.request().method() === 'PUT',
  );
  await page.getByRole('combobox', { name: /^(Language|Lugha)$/ }).selectOption(language);
  await saved;
}

/**
 * Kiswahili for a signed-in page. After sign-in the app takes on the user's saved language once
 * (docs/web-app.md, "Behaviour"); once it has, the choice kept in this browser holds over reloads.
 */
export async function inKiswahili(page: Page): Promise<void> {
  for (let i = 0; i < 100 && !(await page.evaluate(() => localStorage.getItem('languageSyncedFor'))); i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  await page.evaluate(() => localStorage.setItem('language', 'sw'));
  await page.reload();
}
