/** Headless Chromium for the report specs: Debian's /usr/bin/chromium, a fresh profile per launch. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export function launchChromium(): Promise<BrowserContext> {
  return chromium.launchPersistentContext(mkdtempSync(path.join(tmpdir(), 'chromium-')), {
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
