import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { findDeepNesting } from './json-depth';
import { listFixtures, readFixture } from '../test-support/fixtures';

/** The deepest nesting of a parsed value (a container counts one level). */
function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  const children = Array.isArray(v) ? v : Object.values(v);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('findDeepNesting', () => {
  it('passes every real Istio manifest and config dump at the default limit', () => {
    for (const dir of ['istio_config/analyzer', 'config_dump', 'pods'])
      for (const f of listFixtures(dir).filter((n) => /\.(ya?ml|json)$/.test(n))) {
        const text = readFixture(...dir.split('/'), f);
        expect(findDeepNesting(text, 256), `${dir}/${f}`).toBeNull();
      }
  });

  it('finds a real manifest too deep for a limit below its depth, and not at its depth', () => {
    const text = readFixture('pods', 'kube-dns_pod_with_status.yaml');
    const depth = Math.max(...parseAllDocuments(text).map((d) => depthOf(d.toJS())));
    expect(depth).toBeGreaterThan(4);
    expect(findDeepNesting(text, depth - 3)).not.toBeNull();
    expect(findDeepNesting(text, depth + 1)).toBeNull();
  });

  it('counts JSON brackets exactly, wherever the lines are indented', () => {
    expect(findDeepNesting('['.repeat(256) + ']'.repeat(256), 256)).toBeNull();
    expect(findDeepNesting('['.repeat(257), 256)).toEqual({ line: 1, column: 257, depth: 257 });
    const pretty = JSON.stringify(JSON.parse('{"a":'.repeat(200) + '1' + '}'.repeat(200)), null, 2);
    expect(findDeepNesting(pretty, 200)).toBeNull();
    expect(findDeepNesting(pretty, 199)?.depth).toBe(200);
  });

  it('ignores brackets inside strings', () => {
    expect(findDeepNesting(`{"a": "${'['.repeat(1000)}"}`, 2)).toBeNull();
    expect(findDeepNesting(`{"a": "\\"${'['.repeat(10)}"}`, 2)).toBeNull();
  });

  it('finds 100,000 compact YAML sequences on one line, at once', () => {
    const found = findDeepNesting('- '.repeat(100_000) + 'x\n', 256);
    expect(found).toEqual({ line: 1, column: 2 * 256 + 1, depth: 257 });
  });

  it('finds nesting by indentation, one space deeper per line', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i)}a:`);
    const found = findDeepNesting(lines.join('\n') + ' 1\n', 256);
    expect(found).toEqual({ line: 257, column: 257, depth: 257 });
  });

  it('adds flow collections to the block collections they sit in', () => {
    const text = 'a:\n  b:\n    c: ' + '{d: '.repeat(10) + '1' + '}'.repeat(10) + '\n';
    expect(findDeepNesting(text, 13)).toBeNull();
    expect(findDeepNesting(text, 12)?.depth).toBe(13);
  });

  it('closes indented collections when a line goes back out, and skips comments', () => {
    const text = Array.from({ length: 500 }, () => 'a:\n  b:\n    # deep comment\n    c: 1').join(
      '\n',
    );
    expect(findDeepNesting(text, 3)).toBeNull();
  });
});
