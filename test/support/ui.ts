/**
 * The steps the web UI's browser tests share: a page signed in with a token through the sign-in page,
 * as a user signs in, and a wait for an element's text (the live views change it when the server's
 * state does).
 */
import type { BrowserContext, Page } from 'playwright-core';

/** The page's globals as the functions handed to page.waitForFunction use them: they run in the browser. */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

/** Signs `page` in with `secret` on the server at `url`, and waits until the app says who it is. */
export async function signIn(page: Page, url: string, secret: string): Promise<void> {
  await page.goto(`${url}/ui/settings/tokens`);
  await page.fill('#secret', secret);
  await page.click('button[type=submit]');
  await page.waitForSelector('[data-testid=signed-in]');
}

/** A new page of the browser, signed in with `secret`. */
export async function signedIn(context: BrowserContext, url: string, secret: string): Promise<Page> {
  const page = await context.newPage();
  await signIn(page, url, secret);
  return page;
}

/** Waits until the element's text, trimmed, is `want`; or, with 'contains', holds it. */
export const waitForText = (page: Page, selector: string, want: string, how: 'is' | 'contains' = 'is') =>
  page.waitForFunction(
    ([sel, w, h]) => {
      const text = (document.querySelector(sel)?.textContent ?? '').trim();
      return h === 'is' ? text === w : text.includes(w);
    },
    [selector, want, how] as const,
  );
