import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { checkChromium, chromiumPath } from './chromium';

describe('chromiumPath / checkChromium', () => {
  it('CHROMIUM_PATH wins, else the headless shell, else Debian’s /usr/bin/chromium', () => {
    const on =
      (...files: string[]) =>
      (f: string) =>
        files.includes(f);
    expect(chromiumPath({ CHROMIUM_PATH: '/opt/chrome/chrome' }, on())).toBe('/opt/chrome/chrome');
    const both = on('/usr/bin/chromium', '/usr/bin/chromium-headless-shell');
    expect(chromiumPath({}, both)).toBe('/usr/bin/chromium-headless-shell');
    expect(chromiumPath({}, on('/usr/bin/chromium'))).toBe('/usr/bin/chromium');
    // neither: the full browser's path, which the error then names
    expect(chromiumPath({}, on())).toBe('/usr/bin/chromium');
    expect(chromiumPath({ CHROMIUM_PATH: '' }, on('/usr/bin/chromium'))).toBe('/usr/bin/chromium');
  });

  it('names the path, CHROMIUM_PATH and the apt-get command when missing or not executable', () => {
    const missing = checkChromium('/nonexistent/chromium');
    expect(missing).toContain('/nonexistent/chromium does not exist');
    expect(missing).toContain('apt-get install -y chromium');
    expect(missing).toContain('CHROMIUM_PATH');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-chromium-'));
    const file = path.join(dir, 'chromium');
    fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o644 });
    expect(checkChromium(dir)).toContain('is not a file');
    expect(checkChromium(file)).toContain('is not executable');
    fs.chmodSync(file, 0o755);
    expect(checkChromium(file)).toBeNull();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
