import fs from 'node:fs';
import type { Browser } from '@playwright/test';

/** Flags for Debian's Chromium in containers and CI (no sandbox, no background traffic). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Debian's Chromium builds, the lighter first: the headless shell (Debian's
 * chromium-headless-shell) renders pages as Chromium does, without the windowing half of the
 * browser; measured on the e2e suite on two cores, it took 206 s where the full browser took 289.
 */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

/**
 * CHROMIUM_PATH when set, else the first of CHROMIUM_CANDIDATES on this machine (the full
 * browser's path when none is, so that the error names it).
 */
export function chromiumPath(env: Env, exists: (file: string) => boolean = fs.existsSync): string {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return CHROMIUM_CANDIDATES.find(exists) ?? '/usr/bin/chromium';
}

const installHint = (path: string) =>
  `Install it (apt-get install -y chromium-headless-shell, or chromium) or set CHROMIUM_PATH to its executable (now: ${path}).`;

/** Null when an executable is there, else the message to print. */
export function checkChromium(path: string): string | null {
  try {
    const st = fs.statSync(path);
    if (!st.isFile()) return `Chromium not found: ${path} is not a file. ${installHint(path)}`;
    fs.accessSync(path, fs.constants.X_OK);
    return null;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' ? 'is not executable' : 'does not exist';
    return `Chromium not found: ${path} ${why}. ${installHint(path)}`;
  }
}

export type LaunchResult = { ok: true; browser: Browser } | { ok: false; message: string };

/** Launches the system Chromium through Playwright; never downloads a browser. */
export async function launchChromium(path: string): Promise<LaunchResult> {
  let chromium: typeof import('@playwright/test').chromium;
  try {
    ({ chromium } = await import('@playwright/test'));
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      message: `the package @playwright/test cannot be loaded (${why}); install meshdx with its dependencies (npm install)`,
    };
  }
  try {
    const browser = await chromium.launch({ executablePath: path, args: CHROMIUM_ARGS });
    return { ok: true, browser };
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    return {
      ok: false,
      message: `Chromium at ${path} did not start (${why}). ${installHint(path)}`,
    };
  }
}
