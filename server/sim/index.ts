/**
 * The meshdx cluster simulator: a real HTTP server on 127.0.0.1 speaking the Kubernetes API wire
 * format, with a scenario driving the store on a clock and a mesh emulator behind pod ports.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { createApiServer } from './api/server';
import { parseTokenFile } from './api/auth';
import { SimAuth } from './api/auth-state';
import { DEFAULT_API_OPTIONS, type ApiOptions, type SimContext } from './api/context';
import { createClock } from './world/clock';
import { RequestCounts } from './api/request-counts';
import { createMeshEmulator } from './mesh/index';
import { createXdsControl } from './mesh/istio-model/xds-control';
import type { MeshEmulator, MeshWorld } from './mesh/types';
import { getScenario, scenarioNames } from './scenarios/index';
import { createFaults, type FaultSettings } from './store/faults';
import { createSimLogs, type SimLogsImpl } from './store/logs';
import { createOtlpSender, type OtlpAccessSender } from './otlp/sender';
import { fileRvState } from './store/rvstate';
import { createSimStore, type SimStoreImpl } from './store/store';
import { simKubeconfig } from './api/kubeconfig';
import { seededRandom } from './world/build/ids';
import type { Scenario, SimClock, SimFaults } from './world/types';

export interface SimulatorOptions {
  scenario: string;
  /** 0 (default) = any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 'real'. */
  clock?: 'real' | { fixed: Date };
  params?: Record<string, string>;
  /** Write the kubeconfig here too. */
  kubeconfigPath?: string;
  faults?: FaultSettings;
  /**
   * State file: resourceVersions continue above the one saved there by the previous run
   * (created when missing).
   */
  stateFile?: string;
  /**
   * Makes this start's uids its own. Default: the state file's starting resourceVersion (it
   * only grows from start to start), or random bytes without a state file; a restarted
   * simulator then never gives a new pod the uid of one an earlier run made.
   */
  uidSalt?: string;
  /** Watch history size (default 10,000). */
  historySize?: number;
  /** Log lines kept per container (default 5,000). */
  maxLogLines?: number;
  api?: Partial<ApiOptions>;
  /**
   * A static token file (kube-apiserver's --token-auth-file CSV: token,user,uid,"g1,g2"): bearer
   * tokens are then checked (401 for an unknown one), impersonation needs RBAC's `impersonate`,
   * and every request is authorized by the RBAC objects the simulator stores. The simulator's
   * own kubeconfig token stays allowed everything (system:masters).
   */
  tokenAuthFile?: string;
  /** For tests: a scenario that is not in the registry. */
  scenarioImpl?: Scenario;
  /** For tests: a mesh emulator in place of the real one. */
  meshImpl?: (world: MeshWorld) => MeshEmulator;
  /** For tests: randomness of the errorRate fault (default Math.random). */
  random?: () => number;
}

export interface RunningSimulator {
  url: string;
  port: number;
  scenario: string;
  kubeconfigYaml: string;
  kubeconfigPath?: string;
  store: SimStoreImpl;
  logs: SimLogsImpl;
  clock: SimClock;
  faults: SimFaults;
  /** The sidecars' OpenTelemetry access logger (sends when a Telemetry enables a provider). */
  otlp: OtlpAccessSender;
  close(): Promise<void>;
}

export class UnknownScenarioError extends Error {
  constructor(
    readonly scenario: string,
    readonly known: string[],
  ) {
    super(`unknown scenario "${scenario}"; known scenarios: ${known.join(', ') || '(none)'}`);
  }
}

export async function startSimulator(opts: SimulatorOptions): Promise<RunningSimulator> {
  const scenario = opts.scenarioImpl ?? getScenario(opts.scenario);
  if (scenario === undefined) throw new UnknownScenarioError(opts.scenario, scenarioNames());
  const name = opts.scenarioImpl?.name ?? opts.scenario;
  const auth =
    opts.tokenAuthFile === undefined
      ? undefined
      : new SimAuth(await readTokenFile(opts.tokenAuthFile));
  const clock = createClock(opts.clock ?? 'real');
  const rvState = opts.stateFile === undefined ? undefined : fileRvState(opts.stateFile);
  const store = createSimStore({
    now: () => clock.now(),
    historySize: opts.historySize,
    startResourceVersion: rvState?.start,
    onResourceVersion: rvState === undefined ? undefined : (rv) => rvState.advance(rv),
  });
  const logs = createSimLogs({ maxLinesPerContainer: opts.maxLogLines });
  const faults = createFaults(opts.faults);
  const xds = createXdsControl(
    store,
    () => clock.now().getTime(),
    (at, fn) => clock.schedule(new Date(at), fn),
  );
  const world: MeshWorld = {
    now: () => clock.now(),
    list: (kind) => store.list(kind),
    xds: () => xds.model(),
  };
  const mesh = (opts.meshImpl ?? createMeshEmulator)(world);
  const ctx: SimContext = {
    scenario: name,
    store,
    logs,
    clock,
    faults,
    mesh,
    random: opts.random ?? Math.random,
    options: { ...DEFAULT_API_OPTIONS, ...opts.api },
    requests: new RequestCounts(),
    ...(auth ? { auth } : {}),
  };
  const otlp = createOtlpSender(store);
  scenario.start({
    store,
    logs,
    clock,
    random: seededRandom(name),
    params: opts.params ?? {},
    xds,
    uidSalt: opts.uidSalt ?? (rvState ? `rv-${rvState.start}` : randomBytes(8).toString('hex')),
    onAccess: (pod, e) => otlp.onAccess(pod, e),
  });
  // a control plane that has been running holds its state before the first request asks for it
  mesh.warm?.();

  const api = createApiServer(ctx);
  const host = opts.host ?? '127.0.0.1';
  let port: number;
  try {
    port = await api.listen(opts.port ?? 0, host);
  } catch (err) {
    clock.stop();
    await otlp.stop();
    throw err;
  }
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;
  const kubeconfigYaml = simKubeconfig(url, name);
  if (opts.kubeconfigPath !== undefined) {
    await fs.writeFile(opts.kubeconfigPath, kubeconfigYaml, { mode: 0o600 });
  }
  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    scenario: name,
    kubeconfigYaml,
    kubeconfigPath: opts.kubeconfigPath,
    store,
    logs,
    clock,
    faults,
    otlp,
    close() {
      closed ??= (async () => {
        clock.stop();
        await otlp.stop();
        await api.close();
        rvState?.close(store.resourceVersion());
      })();
      return closed;
    },
  };
}

async function readTokenFile(file: string) {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    throw new Error(`token file ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return parseTokenFile(text);
  } catch (e) {
    throw new Error(`token file ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
