import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath, readFixture } from '../../test-support/fixtures';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { runWith, type ReadStdin } from './findings';

const dir = tempDir('findings');
const io = () => fakeIO(dir);
const analyzer = (f: string) => fixturePath('istio_config', 'analyzer', f);
const noStdin: ReadStdin = () => Promise.reject(new Error('stdin not expected'));
const stdinOf =
  (text: string): ReadStdin =>
  (max) =>
    Promise.resolve(Buffer.byteLength(text) > max ? { tooLarge: true } : { text });

interface JsonOut {
  findings: {
    code: string;
    severity: string;
    subject: { kind: string; namespace: string | null; name: string };
    evidence: Record<string, unknown>;
    fix: { why: string } | null;
    part?: { kind: string; name: string };
  }[];
  unreadable: { file: string; line: number; reason: string; message: string }[];
  groups: { code: string; count: number }[];
  summary: { files: number; objects: number; findings: number; errors: number };
}

describe('meshdx findings --suppress and the analyze-suppress annotation', () => {
  it('silences by rule, with wildcards, and says how many and by what', async () => {
    const t = io();
    const code = await runWith(
      [analyzer('injection.yaml'), '-S', 'IST0103=Pod *.default', '--json'],
      t,
      noStdin,
    );
    expect(code).toBe(0);
    const out = JSON.parse(t.out) as JsonOut & {
      suppressed: { count: number; by: { by: string; count: number }[] };
    };
    expect(out.findings.filter((f) => f.code === 'IST0103')).toEqual([]);
    expect(out.suppressed).toEqual({
      count: 1,
      by: [{ by: '--suppress IST0103=Pod *.default', count: 1 }],
    });
    const human = io();
    await runWith(
      [analyzer('injection.yaml'), '--suppress', 'IST0103=Pod *.default'],
      human,
      noStdin,
    );
    expect(human.out).toContain('1 suppressed:\n  1 by --suppress IST0103=Pod *.default\n');
    expect(human.out).not.toContain('PodMissingProxy');
  });

  it('silences what the annotation on the object names', async () => {
    const text = fs
      .readFileSync(analyzer('injection.yaml'), 'utf8')
      .replace(
        'name: noninjectedpod\n',
        'name: noninjectedpod\n  annotations:\n    galley.istio.io/analyze-suppress: IST0103\n',
      );
    expect(text).toContain('analyze-suppress');
    fs.writeFileSync(path.join(dir, 'annotated.yaml'), text);
    const t = io();
    await runWith(['annotated.yaml'], t, noStdin);
    expect(t.out).not.toContain('PodMissingProxy');
    expect(t.out).toContain(
      '1 by annotation galley.istio.io/analyze-suppress=IST0103 on Pod default/noninjectedpod',
    );
  });

  it('refuses a value that is not CODE=RESOURCE and warns on a code meshdx does not report', async () => {
    const t = io();
    expect(await runWith([analyzer('injection.yaml'), '-S', 'IST0103'], t, noStdin)).toBe(2);
    expect(t.err).toMatch(/-S "IST0103" is not a suppression: expected CODE=RESOURCE/);
    const w = io();
    await runWith([analyzer('injection.yaml'), '-S', 'IST0999=Pod x'], w, noStdin);
    expect(w.err).toContain('warning: message code IST0999 is unknown to meshdx');
  });
});

describe('meshdx findings given a file of another kind', () => {
  it('says what it looks like and which command reads it', async () => {
    const t = io();
    const dump = fixturePath('config_dump', 'istioctl-proxyconfig_all_types_config_dump.json');
    expect(await runWith([dump], t, noStdin)).toBe(2);
    expect(t.err).toContain(
      `${dump}: not Kubernetes manifests; it looks like an Envoy config dump (/config_dump): meshdx clusters ${dump} reads it`,
    );
    const log = io();
    const file = fixturePath('access_logs', 'istio-io-docs_text_multi-version.log');
    fs.copyFileSync(file, path.join(dir, 'access.yaml'));
    expect(await runWith(['access.yaml', analyzer('injection.yaml')], log, noStdin)).toBe(0);
    expect(log.err).toContain(
      'access.yaml: not Kubernetes manifests; it looks like an Envoy access log: meshdx accesslog access.yaml reads it',
    );
  });
});

describe('meshdx findings', () => {
  it("reports istioctl's injection case as warnings, exit 0", async () => {
    const t = io();
    expect(await runWith([analyzer('injection.yaml')], t, noStdin)).toBe(0);
    expect(t.out).toMatch(/^WARNING +IST0103 PodMissingProxy \(1\)$/m);
    expect(t.out).toContain('Pod default/noninjectedpod');
    expect(t.out).toContain('kubectl -n default delete pod noninjectedpod');
    expect(t.err).toBe('');
  });

  it('prints the documented JSON and exits 1 on errors (a route to a missing subset)', async () => {
    const t = io();
    const code = await runWith(
      [analyzer('virtualservice_destinationrules.yaml'), '--json'],
      t,
      noStdin,
    );
    expect(code).toBe(1);
    const out = JSON.parse(t.out) as JsonOut;
    expect(Object.keys(out)).toEqual([
      'findings',
      'unreadable',
      'groups',
      'meshConfig',
      'istiod',
      'suppressed',
      'summary',
    ]);
    const f = out.findings.find(
      (x) => x.code === 'IST0101' && x.evidence.reftype === 'host+subset',
    );
    expect(f).toMatchObject({
      severity: 'error',
      subject: { kind: 'VirtualService', namespace: 'default', name: 'reviews-bogussubset' },
      part: { kind: 'destination', name: 'http[0].route[0] subset reviews+bogus' },
    });
    expect(Object.keys(f ?? {})).toEqual([
      'code',
      'severity',
      'subject',
      'part',
      'evidence',
      'fix',
      'istio',
    ]);
    expect(out.unreadable).toEqual([]);
    expect(out.summary).toMatchObject({ files: 1, objects: 6 });
  });

  it('walks folders recursively, reads only manifests, and reports broken documents', async () => {
    const root = path.join(dir, 'tree');
    fs.mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    fs.copyFileSync(analyzer('injection.yaml'), path.join(root, 'a', 'injection.yaml'));
    fs.copyFileSync(
      analyzer('destinationrule-empty-topology-labels.yaml'),
      path.join(root, 'a', 'b', 'dr.yml'),
    );
    fs.writeFileSync(path.join(root, 'notes.txt'), 'kind: Pod\n');
    fs.writeFileSync(path.join(root, 'a', 'broken.yaml'), 'kind: Service\nmetadata: [\n');
    fs.writeFileSync(
      path.join(root, 'nospec.json'),
      JSON.stringify({ kind: 'Pod', metadata: { name: 'ghost', namespace: 'default' } }),
    );
    const t = io();
    expect(await runWith(['tree', '--json'], t, noStdin)).toBe(1);
    const out = JSON.parse(t.out) as JsonOut;
    expect(out.summary.files).toBe(4);
    expect(out.unreadable).toEqual([
      expect.objectContaining({ file: path.join('tree', 'a', 'broken.yaml'), line: 3 }),
    ]);
    const codes = new Set(out.findings.map((f) => f.code));
    // istioctl's injection.yaml: as istioctl analyze reports it (namespaces' injection labels too)
    expect([...codes].sort()).toEqual([
      'IST0102',
      'IST0103',
      'IST0123',
      'IST0135',
      'IST0173',
      'MDX0004',
    ]);
    const ghost = out.findings.find((f) => f.code === 'MDX0004');
    expect(ghost?.evidence).toMatchObject({
      problem: 'spec is missing',
      origin: 'tree/nospec.json:1',
    });
    expect(t.err).toContain('broken.yaml:3: invalid YAML');
  });

  it('reads kubectl get -o json from standard input', async () => {
    const pods = readFixture('istio_config', 'analyzer', 'injection.yaml');
    const { parseAllDocuments } = await import('yaml');
    const items = parseAllDocuments(pods).map((d) => d.toJS() as unknown);
    const t = io();
    const code = await runWith(
      ['-', '--json'],
      t,
      stdinOf(JSON.stringify({ kind: 'List', items })),
    );
    expect(code).toBe(0);
    const out = JSON.parse(t.out) as JsonOut;
    expect(out.findings.filter((f) => f.code === 'IST0103').map((f) => f.subject.name)).toEqual([
      'noninjectedpod',
    ]);
  });

  it('exit 2 naming the file when it does not exist', async () => {
    const t = io();
    expect(await runWith(['missing.yaml', analyzer('injection.yaml')], t, noStdin)).toBe(2);
    expect(t.err).toBe('meshdx findings: missing.yaml: no such file or folder\n');
    expect(t.out).toBe('');
  });

  it('exit 2 when nothing is readable, saying why per file', async () => {
    fs.writeFileSync(path.join(dir, 'junk.yaml'), 'just words\n');
    fs.mkdirSync(path.join(dir, 'empty'), { recursive: true });
    const t = io();
    expect(await runWith(['junk.yaml', 'empty'], t, noStdin)).toBe(2);
    expect(t.err).toContain('nothing readable in junk.yaml empty');
    expect(t.err).toContain('junk.yaml:1: not a Kubernetes object');
    expect(t.err).toContain('empty: folder has no *.yaml, *.yml or *.json file');
  });

  it('bounds the input with a clear message', async () => {
    const t = io();
    const code = await runWith([analyzer('injection.yaml'), '--max-mb', '0.001'], t, noStdin);
    expect(code).toBe(2);
    expect(t.err).toMatch(
      /injection\.yaml: the input reaches 0\.0 MiB, over the limit of 0\.0 MiB \(--max-mb N raises it\)/,
    );
    const s = io();
    expect(await runWith(['-', '--max-mb', '0.0001'], s, stdinOf('x'.repeat(200)))).toBe(2);
    expect(s.err).toContain('standard input is larger than the input limit');
  });

  it('rejects unknown options and no PATH with usage', async () => {
    const t = io();
    expect(await runWith(['--yaml'], t, noStdin)).toBe(2);
    expect(t.err).toContain('unknown option --yaml');
    const u = io();
    expect(await runWith([], u, noStdin)).toBe(2);
    expect(u.err).toContain('usage: meshdx findings PATH');
  });
});

describe('meshdx findings and the mesh config', () => {
  /** A Sidecar with a workloadSelector in `namespace` (MDX0302 when that is the root). */
  const selected = (namespace: string) =>
    [
      'apiVersion: networking.istio.io/v1',
      'kind: Sidecar',
      'metadata:',
      '  name: payments-only',
      `  namespace: ${namespace}`,
      'spec:',
      '  workloadSelector:',
      '    labels: {app: payments}',
      '  egress:',
      '  - hosts: ["./*"]',
      '',
    ].join('\n');
  const write = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text);
    return name;
  };
  const mdx0302 = (out: JsonOut) =>
    out.findings.filter((f) => f.code === 'MDX0302').map((f) => f.subject.namespace);

  it('takes the root namespace from --mesh-config', async () => {
    const manifest = write('root-sidecar.yaml', selected('mesh-root'));
    const plain = io();
    await runWith([manifest, '--json'], plain, noStdin);
    const without = JSON.parse(plain.out) as JsonOut & { meshConfig: unknown };
    expect(mdx0302(without)).toEqual([]);
    expect(without.meshConfig).toBeNull();

    const mesh = write('mesh.yaml', 'rootNamespace: mesh-root\ntrustDomain: cluster.local\n');
    const t = io();
    await runWith([manifest, '--mesh-config', mesh, '--json'], t, noStdin);
    const out = JSON.parse(t.out) as JsonOut & { meshConfig: unknown };
    expect(mdx0302(out)).toEqual(['mesh-root']);
    expect(out.meshConfig).toEqual({ origin: mesh, rootNamespace: 'mesh-root' });
  });

  it('reads a mesh config among the PATHs as one, not as a malformed object', async () => {
    // Istio's analyzer test data gives mesh configs as files of their own
    const t = io();
    await runWith(
      [
        analyzer('serviceentry-address-allocated-mesh-cfg.yaml'),
        analyzer('injection.yaml'),
        '--json',
      ],
      t,
      noStdin,
    );
    const out = JSON.parse(t.out) as JsonOut & { meshConfig: { origin: string } | null };
    expect(out.findings.filter((f) => f.code === 'MDX0002')).toEqual([]);
    expect(out.meshConfig?.origin).toContain('serviceentry-address-allocated-mesh-cfg.yaml:1');
    // the istio ConfigMap of a cluster dump counts too, and stays an object
    const cm = write(
      'istio-cm.yaml',
      [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: {name: istio, namespace: istio-system}',
        'data:',
        '  mesh: |-',
        '    rootNamespace: mesh-root',
        '',
        '---',
        selected('mesh-root'),
      ].join('\n'),
    );
    const c = io();
    await runWith([cm, '--json'], c, noStdin);
    const fromCm = JSON.parse(c.out) as JsonOut;
    expect(mdx0302(fromCm)).toEqual(['mesh-root']);
    expect(fromCm.summary.objects).toBe(2);
  });

  it('says why a --mesh-config cannot be used, exit 2', async () => {
    const manifest = write('any.yaml', selected('shop'));
    const missing = io();
    expect(await runWith([manifest, '--mesh-config', 'nope.yaml'], missing, noStdin)).toBe(2);
    expect(missing.err).toContain('--mesh-config nope.yaml: no such file');
    const pod = io();
    const notMesh = write('pod.yaml', 'kind: Pod\nmetadata: {name: x}\n');
    expect(await runWith([manifest, '--mesh-config', notMesh], pod, noStdin)).toBe(2);
    expect(pod.err).toContain('no mesh config found');
    // a broken mesh text inside the istio ConfigMap: listed, placed inside that text
    const broken = write(
      'broken-cm.yaml',
      'kind: ConfigMap\nmetadata: {name: istio, namespace: istio-system}\ndata:\n  mesh: "rootNamespace: [x"\n',
    );
    const b = io();
    await runWith([broken, manifest, '--json'], b, noStdin);
    const listed = (JSON.parse(b.out) as JsonOut).unreadable;
    expect(listed).toEqual([
      expect.objectContaining({ file: `${broken}:1`, line: 0, reason: 'invalid-yaml' }),
    ]);
    expect(listed[0]?.message).toMatch(
      /^mesh config: inside data\.mesh, at line 1 column \d+ of its text/,
    );
    const only = io();
    const bare = analyzer('telemetry-lightstep-meshconfig.yaml');
    expect(await runWith([bare], only, noStdin)).toBe(2);
    expect(only.err).toContain('only a mesh config');
  });
});

describe('meshdx findings --namespace and --from-cluster', () => {
  const routes = (ns: string) => `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: r, namespace: ${ns}}
spec:
  hosts: [r.example.com]
  gateways: [istio-system/missing]
  http: [{route: [{destination: {host: r.example.com}}]}]
---
apiVersion: v1
kind: Namespace
metadata: {name: ${ns}}
`;
  const file = path.join(dir, 'two-namespaces.yaml');
  fs.writeFileSync(file, `${routes('a')}---\n${routes('b')}`);
  const subjects = (out: JsonOut) =>
    [
      ...new Set(
        out.findings.map(
          (f) => `${f.subject.kind} ${f.subject.namespace ?? '-'} ${f.subject.name}`,
        ),
      ),
    ].sort();

  it('reports the namespaces asked for, and their Namespace objects, of everything read', async () => {
    const all = io();
    await runWith([file, '--json'], all, noStdin);
    const allOut = JSON.parse(all.out) as JsonOut;
    expect(subjects(allOut).some((s) => s.startsWith('VirtualService b '))).toBe(true);
    const t = io();
    await runWith([file, '--json', '--namespace', 'a'], t, noStdin);
    const out = JSON.parse(t.out) as JsonOut;
    expect(out.summary.objects).toBe(allOut.summary.objects);
    expect(subjects(out)).toEqual(
      subjects(allOut).filter((s) => / a /.test(s) || s === 'Namespace - a'),
    );
    expect(subjects(out).length).toBeGreaterThan(0);
  });

  it('refuses a namespace that cannot be one, and a value to --from-cluster', async () => {
    const t = io();
    expect(await runWith([file, '-n', 'Not_Valid'], t, noStdin)).toBe(2);
    expect(t.err).toMatch(/-n: /);
    const u = io();
    expect(await runWith([file, '--from-cluster=yes'], u, noStdin)).toBe(2);
    expect(u.err).toContain('--from-cluster takes no value');
  });

  it("judges a cluster's objects as a cluster: no stand-in ingress gateway is added", async () => {
    // istioctl adds a default ingress gateway to files: the Gateway selecting it is fine there;
    // in a cluster nothing runs it, so its selector matches no pod (IST0101)
    const codes = async (extra: string[]) => {
      const t = io();
      await runWith([analyzer('gateway-correct-port.yaml'), '--json', ...extra], t, noStdin);
      return (JSON.parse(t.out) as JsonOut).findings.map((f) => f.code);
    };
    expect(await codes([])).toEqual([]);
    expect(await codes(['--from-cluster'])).toEqual(['IST0101']);
  });
});
