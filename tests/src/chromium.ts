import { chromium, type Browser } from 'playwright-core';

/** The system Chromium, headless, as every browser test and bench runs it; `extraArgs` add switches. */
export function launchChromium(...extraArgs: string[]): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run', ...extraArgs] });
}
