import { describe, expect, it } from 'vitest';
import { readPasted } from '../../tests/data/pasted/read';
import { describedKind, readDescribe } from './describe';
import { anchorClock, parseAge, parseEventRow, toKubeEvents } from './describe-events';
import { limitAllByDescribe } from './describe-limits';
import { readTimelineInput } from './input';
import { analyzePods } from './analyze';
import { pastedKindHint } from '../pasted-kind';

const CLASSIC = 'describe-classic-running-vscode-k8s-tools-994.txt';
const CRASHLOOP = 'describe-init-crashloop-istio-16481.txt';
const GATEWAY = 'describe-gateway-header-istio-52370.txt';

describe('kubectl describe pod text', () => {
  it('reads containers, states and their times to the second (a classic sidecar, cut short)', () => {
    const r = readDescribe(readPasted(CLASSIC));
    expect(r.errors).toEqual([]);
    const [d] = r.pods;
    expect(d?.pod.status?.initContainerStatuses?.[0]).toMatchObject({
      name: 'istio-init',
      ready: true,
      restartCount: 0,
      state: {
        terminated: {
          exitCode: 0,
          reason: 'Completed',
          startedAt: '2021-11-25T04:31:05Z',
          finishedAt: '2021-11-25T04:31:06Z',
        },
      },
    });
    expect(d?.pod.status?.containerStatuses?.[0]).toMatchObject({
      name: 'istio-proxy',
      ready: true,
      state: { running: { startedAt: '2021-11-25T04:31:07Z' } },
    });
    expect(d?.pod.status?.startTime).toBe('2021-11-25T04:31:04Z');
    expect(d?.unknowns).toContain('the paste ends inside the pod: what follows is missing');
    expect(d?.unknowns).toContain('condition times: describe prints no lastTransitionTime');
    expect(d?.eventTimes).toBe('none');
  });

  it('reads a crash-looping istio-init: waiting reason, last state, key=value annotations', () => {
    const [d] = readDescribe(readPasted(CRASHLOOP)).pods;
    expect(d?.pod.metadata).toMatchObject({
      name: 'myapp-deployment-57564dcfd5-zjmjw',
      namespace: 'myapp-test',
      labels: { app: 'myapp', 'pod-template-hash': '57564dcfd5' },
    });
    expect(d?.pod.metadata.annotations?.['sidecar.istio.io/inject']).toBe('true');
    expect(d?.pod.status?.phase).toBe('Pending');
    expect(d?.pod.spec.nodeName).toBe('ip-10-24-79-104.ec2.internal');
    expect(d?.pod.status?.initContainerStatuses?.[0]).toEqual({
      name: 'istio-init',
      ready: false,
      restartCount: 0,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { exitCode: 1, reason: 'Error' } },
    });
  });

  it('reads Windows line endings as the same pods (the fixture with CRLF put in)', () => {
    const lf = readDescribe(readPasted(CRASHLOOP));
    const crlf = readDescribe(readPasted(CRASHLOOP).replace(/\n/g, '\r\n'));
    expect(crlf).toEqual(lf);
  });

  it('reads several pods in one paste (two real pastes joined as `kubectl describe pods` prints)', () => {
    const text = `${readPasted(CRASHLOOP)}\n\n${readPasted(GATEWAY)}`;
    const r = readTimelineInput(text);
    expect(r.pods.map((p) => p.metadata.name)).toEqual([
      'myapp-deployment-57564dcfd5-zjmjw',
      'bookinfo-gateway-istio-6ccbf9b4f-qt8wm',
    ]);
    expect(r.described?.map((d) => d.pod.metadata.namespace)).toEqual(['myapp-test', 'default']);
  });

  it('names a describe of another kind, and an Events table pasted without its pod', () => {
    const deployment = readPasted('describe-deployment-k8s-docs.txt');
    expect(describedKind(deployment)).toBe('deployment');
    const r = readTimelineInput(deployment);
    expect(r.pods).toEqual([]);
    expect(r.errors[0]?.message).toMatch(
      /^nginx-deployment: this looks like `kubectl describe deployment` output, not a pod's/,
    );
    expect(pastedKindHint(deployment, 'meshdx clusters')).toMatch(
      /`kubectl describe deployment` output: meshdx reads `kubectl describe pod` \(meshdx timeline\)/,
    );
    expect(pastedKindHint(readPasted(CLASSIC), 'meshdx accesslog')).toBe(
      'this looks like `kubectl describe pod` output: `meshdx timeline FILE` reads it',
    );
    const events = readTimelineInput(readPasted('describe-events-only-istio-23461.txt'));
    expect(events.errors).toEqual([
      {
        line: 2,
        column: 1,
        reason: 'not-a-pod',
        message:
          'only the Events table of `kubectl describe pod`: the pod (Name, Containers) is not in the paste; paste the whole describe output',
      },
    ]);
  });

  it("reads the Events table's relative ages with their resolution and repeat counts", () => {
    expect(parseAge('9m3s')).toEqual({ s: 543, res: 1 });
    expect(parseAge('59m')).toEqual({ s: 3540, res: 60 });
    expect(parseAge('<invalid>')).toBeNull();
    const lines = readPasted('describe-events-startup-probe-istio-53393.txt').split('\n');
    const rows = lines.map((l, i) => parseEventRow(l, i + 1)).filter((r) => r !== null);
    expect(rows).toHaveLength(9);
    expect(rows[7]).toMatchObject({
      reason: 'PolicyViolation',
      count: 139,
      lastAge: { s: 780, res: 60 },
      firstAge: { s: 3480, res: 60 },
      from: 'kyverno-scan',
    });
    const events = toKubeEvents(
      rows,
      { name: 'p', namespace: 'n', initContainers: new Set() },
      null,
    );
    // the startup probe on the proxy's health port is the proxy's, though the message
    // does not name the container; no time without a clock
    expect(events[6]).toMatchObject({
      reason: 'Unhealthy',
      involvedObject: { fieldPath: 'spec.containers{istio-proxy}' },
    });
    expect(events[6]?.lastTimestamp).toBeUndefined();
  });

  it('places the events in time only from a container start the paste shows', () => {
    // istio#23461's Events with a Started time for istio-init and istio-proxy as the pod
    // section (not in that issue) would print them: derived, to test the anchoring
    const lines = readPasted('describe-events-only-istio-23461.txt').split('\n');
    const rows = lines.map((l, i) => parseEventRow(l, i + 1)).filter((r) => r !== null);
    expect(rows.map((r) => r.from)).toContain('kubelet, node10');
    const init = Date.parse('2020-05-01T10:00:01Z');
    const started = new Map([
      ['istio-init', { at: init, restarts: 0 }],
      ['istio-proxy', { at: init + 1000, restarts: 0 }],
    ]);
    const clock = anchorClock(rows, started);
    // `Started container istio-init` 9m1s (to the second) beats `istio-proxy` 9m (to the minute)
    expect(clock).toMatchObject({ at: init + 541_000, errorMs: 1000 });
    const events = toKubeEvents(
      rows,
      {
        name: 'apigateway-6cfc595bf4-cz79f',
        namespace: 'my-namespace',
        initContainers: new Set(['istio-init']),
      },
      clock,
    );
    const unhealthy = events.find((e) => e.reason === 'Unhealthy');
    expect(unhealthy?.lastTimestamp).toBe(new Date(init + 541_000 - 538_000).toISOString());
    expect(events[3]?.involvedObject.fieldPath).toBe('spec.initContainers{istio-init}');
    expect(events[3]?.source).toEqual({ component: 'kubelet', host: 'node10' });
    // a restarted container's Started time is not its first start: no anchor
    expect(anchorClock(rows, new Map([['istio-init', { at: init, restarts: 2 }]]))).toBeNull();
  });

  it('does not judge a pod whose paste ends inside its containers, and says what it saw', () => {
    for (const [file, mode, why] of [
      [
        CLASSIC,
        'classic',
        /^not judged: the paste ends inside its Containers section \(after istio-proxy\)/,
      ],
      [CRASHLOOP, 'classic', /^not judged: the paste ends before its Containers section/],
    ] as const) {
      const input = readTimelineInput(readPasted(file));
      const [t] = limitAllByDescribe(analyzePods(input.pods), input.described ?? []);
      // the analysis alone calls the first a gateway and the second not in the mesh
      expect(analyzePods(input.pods)[0]?.mode).not.toBe('classic');
      expect([t?.mode, t?.verdicts, t?.gapMs]).toEqual([mode, [], null]);
      expect(t?.excluded).toMatch(why);
      expect(t?.notes).not.toContain('no istio-proxy');
    }
    const input = readTimelineInput(readPasted(CRASHLOOP));
    const [t] = limitAllByDescribe(analyzePods(input.pods), input.described ?? []);
    expect(t?.notes).toContain(
      'istio-init is waiting (CrashLoopBackOff); its last run ended Error, exit code 1',
    );
  });

  it('caps the confidence of a pod read whole, and says what describe could not know', () => {
    // DERIVED: the classic paste up to istio-proxy's Restart Count, then the Conditions block
    // of istio#31645, so that the Containers section ends as in a whole describe
    const head = readPasted(CLASSIC).split('\n');
    const text = [
      ...head.slice(0, head.indexOf('    Restart Count:  0', 40) + 1),
      'Conditions:',
      '  Type              Status',
      '  Initialized       True ',
      '  Ready             False ',
      '  ContainersReady   False ',
      '  PodScheduled      True ',
      'Events:          <none>',
    ].join('\n');
    const input = readTimelineInput(text);
    expect(input.described?.[0]?.containersCut).toBeNull();
    expect(input.pods[0]?.status?.conditions).toEqual([
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'False' },
      { type: 'ContainersReady', status: 'False' },
      { type: 'PodScheduled', status: 'True' },
    ]);
    const [t] = limitAllByDescribe(analyzePods(input.pods), input.described ?? []);
    expect(t?.mode).toBe('gateway');
    expect(t?.proxyReady.confidence).toBe('low');
    expect(t?.notes).toContain('read from `kubectl describe pod`: confidence at most low');
    expect(t?.notes).toContain(
      'not known from describe: condition times: describe prints no lastTransitionTime',
    );
  });

  it('takes istio-proxy among the Init Containers for a native sidecar, and says so', () => {
    // DERIVED: no native-sidecar describe was found in public sources; the classic paste with
    // istio-proxy moved under Init Containers (where Istio injects a native sidecar) instead
    const lines = readPasted(CLASSIC).split('\n');
    const c = lines.indexOf('Containers:');
    const text = [...lines.slice(0, c), ...lines.slice(c + 1)].join('\n');
    const [d] = readDescribe(text).pods;
    expect(d?.pod.spec.initContainers?.map((x) => [x.name, x.restartPolicy])).toEqual([
      ['istio-init', undefined],
      ['istio-proxy', 'Always'],
    ]);
    expect(
      d?.unknowns.some((u) =>
        u.startsWith("init containers' restartPolicy: describe does not print it"),
      ),
    ).toBe(true);
    expect(analyzePods(d ? [d.pod] : [])[0]?.mode).toBe('native');
  });
});
