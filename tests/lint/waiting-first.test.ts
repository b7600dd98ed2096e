import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { WAITING_FILES } from '../../test-support/vitest-sequencer';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('the test files Vitest starts first', () => {
  it('are test files that exist, each named once', () => {
    expect(WAITING_FILES.length).toBeGreaterThan(0);
    for (const f of WAITING_FILES) {
      expect(f.endsWith('.test.ts'), f).toBe(true);
      expect(fs.existsSync(path.join(root, f)), `${f} is gone: remove it from WAITING_FILES`).toBe(
        true,
      );
    }
    expect(new Set(WAITING_FILES).size).toBe(WAITING_FILES.length);
  });
});
