import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { parseManifestText } from './input';

const kinds = (text: string) =>
  parseManifestText(text, 'f.yaml').objects.map((o) => (o.object as { kind: string }).kind);

describe('reading manifests', () => {
  it("unwraps istioctl's List-typed test input and keeps the document's line", () => {
    const text = readFixture('istio_config', 'analyzer', 'analyze-list-type.yaml');
    const r = parseManifestText(text, 'analyze-list-type.yaml');
    expect(r.unreadable).toEqual([]);
    expect(r.objects.map((o) => (o.object as { kind: string }).kind)).toEqual(
      expect.arrayContaining(['Gateway']),
    );
    expect(r.objects.every((o) => /^analyze-list-type\.yaml:\d+/.test(o.origin))).toBe(true);
  });

  it('reads kubectl -o json output of a typed list (PodList) and gives items their kind', () => {
    const json = JSON.stringify({
      kind: 'PodList',
      apiVersion: 'v1',
      items: [{ metadata: { name: 'a' }, spec: { containers: [] } }],
    });
    const r = parseManifestText(json, 'pods.json');
    expect(r.objects).toEqual([
      {
        object: { kind: 'Pod', metadata: { name: 'a' }, spec: { containers: [] } },
        origin: 'pods.json:1 items[0]',
      },
    ]);
  });

  it('reads JSON lines and reports the line that is not JSON', () => {
    const r = parseManifestText('{"kind":"Pod"}\n{"kind":\n{"kind":"Service"}\n', 'x.jsonl');
    expect(r.objects.map((o) => o.origin)).toEqual(['x.jsonl:1', 'x.jsonl:3']);
    expect(r.unreadable).toHaveLength(1);
    expect(r.unreadable[0]).toMatchObject({ file: 'x.jsonl', line: 2 });
  });

  it('skips a broken YAML document with its line and reads the others', () => {
    const text =
      'kind: Service\nmetadata: {name: a}\n---\nkind: Pod\n  bad: [\n---\nkind: Namespace\n';
    const r = parseManifestText(text, 'm.yaml');
    expect(r.objects.map((o) => (o.object as { kind: string }).kind)).toEqual([
      'Service',
      'Namespace',
    ]);
    expect(r.unreadable[0]?.line).toBeGreaterThanOrEqual(4);
    expect(r.unreadable[0]).toMatchObject({ reason: 'invalid-yaml' });
    expect(r.unreadable[0]?.message).toMatch(/invalid YAML/);
  });

  it('reports a document that is not an object', () => {
    const r = parseManifestText('just text\n---\nkind: Pod\n', 'm.yaml');
    expect(r.unreadable).toEqual([
      {
        file: 'm.yaml',
        line: 1,
        reason: 'not-an-object',
        message: 'not a Kubernetes object (a string)',
      },
    ]);
    expect(kinds('---\n---\n')).toEqual([]);
  });
});
