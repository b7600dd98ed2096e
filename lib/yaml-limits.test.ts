import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parseDocument } from 'yaml';
import { yamlValue, YAML_MAX_ALIAS_COUNT } from './yaml-limits';
import { readFixture } from '../test-support/fixtures';

/** How long a refused alias bomb may take: a guard, not a measure (docs/testing.md). */
const REFUSED_AT_ONCE_GUARD_MS = 10_000;

/** Nine levels of nine aliases each: 9^9 strings once expanded. */
function aliasBomb(): string {
  let text = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  let prev = 'a';
  for (const name of 'bcdefghi') {
    text += `${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]\n`;
    prev = name;
  }
  return text;
}

describe('yamlValue', () => {
  it('reads a real manifest as toJS does', () => {
    for (const doc of parseAllDocuments(readFixture('pods', 'kube-dns_pod_with_status.yaml')))
      expect(yamlValue(doc)).toEqual({ value: doc.toJS() });
  });

  it('keeps ordinary aliases', () => {
    const doc = parseDocument('base: &b {port: 80}\nother: *b\n');
    expect(yamlValue(doc)).toEqual({ value: { base: { port: 80 }, other: { port: 80 } } });
  });

  it('refuses an alias bomb at once, naming the limit', () => {
    const started = Date.now();
    const read = yamlValue(parseDocument(aliasBomb()));
    expect(read).toEqual({
      error: `YAML aliases expand past the limit of ${YAML_MAX_ALIAS_COUNT} (an alias bomb): not read`,
    });
    // refused before expanding: expanded, 9^9 strings take minutes and gigabytes, so a guard
    // far above the few milliseconds a refusal takes tells them apart on a busy machine too
    expect(Date.now() - started).toBeLessThan(REFUSED_AT_ONCE_GUARD_MS);
  });

  it('takes a higher limit where the caller sets one', () => {
    const text = `a: &a [1]\n${Array.from({ length: 150 }, (_, i) => `k${i}: *a`).join('\n')}\n`;
    expect('error' in yamlValue(parseDocument(text), 100)).toBe(true);
    expect('value' in yamlValue(parseDocument(text), 1000)).toBe(true);
  });
});
