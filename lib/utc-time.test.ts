import { describe, it, expect } from 'vitest';
import { parseTime, utcMs } from './utc-time';
import { UGLY_TIMES } from '../tests/data/utc-time';

describe('utcMs', () => {
  it('is Date.UTC for every day of every month over years 1000..9999, rollover days included', () => {
    let checked = 0;
    const wrong: string[] = [];
    for (let y = 1000; y <= 9999; y += y < 1900 || y > 2100 ? 13 : 1)
      for (let mo = 1; mo <= 12; mo++)
        for (let d = 1; d <= 31; d++) {
          const h = (y + d) % 24;
          const mi = (mo * 7 + d) % 60;
          const s = (y * 3 + d) % 60;
          const ms = (y * d) % 1000;
          if (utcMs(y, mo, d, h, mi, s, ms) !== Date.UTC(y, mo - 1, d, h, mi, s, ms))
            wrong.push(`${y}-${mo}-${d}`);
          checked++;
        }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(100_000);
  });
});

describe('parseTime', () => {
  it('is Date.parse for Kubernetes and Envoy times and for every other shape', () => {
    for (const t of UGLY_TIMES) expect([t, parseTime(t)]).toEqual([t, Date.parse(t)]);
  });

  it('is Date.parse on the start times of the real access-log fixture', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const log = fs.readFileSync(
      path.resolve(
        __dirname,
        '../../shared/fixtures/access_logs/istio-io-docs_text_multi-version.log',
      ),
      'utf8',
    );
    const times = [...log.matchAll(/^\[([^\]]+)\]/gm)].map((m) => m[1] as string);
    expect(times.length).toBeGreaterThan(5);
    for (const t of times) expect([t, parseTime(t)]).toEqual([t, Date.parse(t)]);
  });
});
