/**
 * `meshdx findings --format sarif` on a repository of rendered manifests (Deployments, a
 * StatefulSet, a CronJob, no Pods): selectors are matched against the pod templates, and the log
 * validates against the official SARIF 2.1.0 schema (sarif-2.1.0-rtm.5.json, as shipped by
 * @microsoft/jest-sarif) with ajv; each result sits on the file and line of its object.
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import draft04 from 'ajv/lib/refs/json-schema-draft-04.json';
import type { Log } from 'sarif';
import { describe, expect, it } from 'vitest';
import { runWith } from '../../cli/commands/findings';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { fixturePath } from '../../test-support/fixtures';

const SCHEMA = JSON.parse(
  fs.readFileSync(
    path.resolve(
      import.meta.dirname,
      '../../node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json',
    ),
    'utf8',
  ),
) as Record<string, unknown>;

function validator() {
  const ajv = new Ajv({ schemaId: 'id', allErrors: true, format: 'full' });
  ajv.addMetaSchema(draft04);
  return ajv.compile(SCHEMA);
}

const dir = tempDir('sarif');
const noStdin = () => Promise.reject(new Error('stdin not expected'));

const workloads = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: reviews
  namespace: shop
spec:
  selector:
    matchLabels:
      app: reviews
  template:
    metadata:
      labels:
        app: reviews
    spec:
      containers:
      - name: reviews
        image: reviews:1
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  namespace: shop
spec:
  serviceName: db
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      containers:
      - name: db
        image: db:1
---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: report
  namespace: shop
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          labels:
            app: report
        spec:
          restartPolicy: OnFailure
          containers:
          - name: report
            image: report:1
`;

const sidecars = `apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: reviews-a
  namespace: shop
spec:
  workloadSelector:
    labels:
      app: reviews
---
apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: reviews-b
  namespace: shop
spec:
  workloadSelector:
    labels:
      app: reviews
---
apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: report
  namespace: shop
spec:
  workloadSelector:
    labels:
      app: report
---
apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: ghost
  namespace: shop
  annotations:
    galley.istio.io/analyze-suppress: IST0101
spec:
  workloadSelector:
    labels:
      app: ghost
---
apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: typo
  namespace: shop
spec:
  workloadSelector:
    labels:
      app: reveiws
`;

fs.mkdirSync(path.join(dir, 'repo', 'apps'), { recursive: true });
fs.writeFileSync(path.join(dir, 'repo', 'apps', 'workloads.yaml'), workloads);
fs.writeFileSync(path.join(dir, 'repo', 'sidecars.yaml'), sidecars);

async function sarifOf(args: string[], cwd = dir): Promise<Log> {
  const io = fakeIO(cwd);
  await runWith([...args, '--format', 'sarif'], io, noStdin);
  expect(io.err).toBe('');
  return JSON.parse(io.out) as Log;
}

describe('meshdx findings on rendered manifests (pod templates, no Pods)', () => {
  it('matches Sidecar selectors against pod templates of every workload kind', async () => {
    const log = await sarifOf(['repo']);
    const results = log.runs[0]?.results ?? [];
    const shown = results
      .filter((r) => r.suppressions === undefined)
      .map((r) => `${r.ruleId} ${r.locations?.[0]?.logicalLocations?.[0]?.fullyQualifiedName}`)
      .sort();
    // reviews-a and reviews-b both select the Deployment's pods; report selects the CronJob's;
    // typo selects nothing; ghost selects nothing but is suppressed by its annotation
    expect(shown).toEqual([
      'IST0101 Sidecar shop/typo',
      'IST0110 Sidecar shop/reviews-a',
      'IST0110 Sidecar shop/reviews-b',
    ]);
    const ghost = results.find((r) => r.suppressions !== undefined);
    expect(ghost?.suppressions).toEqual([
      {
        kind: 'inSource',
        justification: 'annotation galley.istio.io/analyze-suppress=IST0101 on Sidecar shop/ghost',
      },
    ]);
  });

  it('places each result on the file and line of its object', async () => {
    const log = await sarifOf(['repo']);
    // the line of the object's first key (its document's start), 1-based
    const lineOf = (text: string, name: string): number => {
      const lines = text.split('\n');
      let i = lines.indexOf(`  name: ${name}`);
      while (i > 0 && !(lines[i] ?? '').startsWith('apiVersion')) i -= 1;
      return i + 1;
    };
    for (const r of log.runs[0]?.results ?? []) {
      const loc = r.locations?.[0]?.physicalLocation;
      const name = (r.locations?.[0]?.logicalLocations?.[0]?.fullyQualifiedName ?? '').split(
        '/',
      )[1];
      expect(loc?.artifactLocation?.uri).toBe('repo/sidecars.yaml');
      expect(loc?.region?.startLine).toBe(lineOf(sidecars, name ?? ''));
    }
  });

  it('validates against the SARIF 2.1.0 schema, with rules per code', async () => {
    const validate = validator();
    const log = await sarifOf(['repo']);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const rules = log.runs[0]?.tool.driver.rules ?? [];
    expect(rules.map((r) => r.id)).toEqual(['IST0101', 'IST0110']);
    for (const r of log.runs[0]?.results ?? []) {
      expect(rules[r.ruleIndex ?? -1]?.id).toBe(r.ruleId);
    }
  });

  it("validates on istioctl's own test inputs too, and the schema refuses a broken log", async () => {
    const validate = validator();
    const log = await sarifOf(
      ['injection.yaml', 'virtualservice_destinationrules.yaml', 'misannotated.yaml'],
      fixturePath('istio_config', 'analyzer'),
    );
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0]?.results?.length).toBeGreaterThan(3);
    const broken = JSON.parse(JSON.stringify(log)) as { runs: { results: { level: string }[] }[] };
    const first = broken.runs[0]?.results[0];
    if (first) first.level = 'fatal';
    expect(validate(broken)).toBe(false);
  });
});
