/**
 * `npm run sim -- --scenario NAME [--port P] [--kubeconfig FILE] [--clock real|ISO]
 *   [--param k=v ...] [--fault latency=200 ...] [--state FILE]`
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startSimulator, UnknownScenarioError } from './index';
import { parseFaultArgs } from './store/faults';

const USAGE =
  'usage: npm run sim -- --scenario NAME [--port P] [--kubeconfig FILE] [--clock real|ISO-TIME] [--param k=v ...] [--state FILE] [--token-auth-file CSV] [--fault latency=MS|errorRate=P|dropWatches=MS|unreachable=NS/POD|slow=NS/POD:MS ...]';

function pairs(list: string[] | undefined, what: string): [string, string][] {
  return (list ?? []).map((item) => {
    const i = item.indexOf('=');
    if (i <= 0) throw new Error(`--${what} wants key=value, got "${item}"`);
    return [item.slice(0, i), item.slice(i + 1)];
  });
}

function parseClockArg(v: string | undefined): 'real' | { fixed: Date } {
  if (v === undefined || v === 'real') return 'real';
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new Error(`--clock wants "real" or an ISO time, got "${v}"`);
  return { fixed: new Date(t) };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string' },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      kubeconfig: { type: 'string' },
      clock: { type: 'string' },
      param: { type: 'string', multiple: true },
      fault: { type: 'string', multiple: true },
      state: { type: 'string' },
      'token-auth-file': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help === true || values.scenario === undefined) {
    console.error(USAGE);
    return values.help === true ? 0 : 2;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`bad --port "${values.port}"`);
  const kubeconfigPath = path.resolve(
    values.kubeconfig ?? path.join(os.tmpdir(), `meshdx-sim-${values.scenario}.kubeconfig`),
  );
  const sim = await startSimulator({
    scenario: values.scenario,
    port,
    host: values.host,
    clock: parseClockArg(values.clock),
    params: Object.fromEntries(pairs(values.param, 'param')),
    faults: parseFaultArgs(values.fault),
    kubeconfigPath,
    ...(values.state !== undefined ? { stateFile: path.resolve(values.state) } : {}),
    ...(values['token-auth-file'] !== undefined
      ? { tokenAuthFile: path.resolve(values['token-auth-file']) }
      : {}),
  });
  console.log(`meshdx simulator: scenario ${sim.scenario} at ${sim.url}`);
  console.log(`kubeconfig: ${kubeconfigPath}`);
  console.log(`try: kubectl --kubeconfig ${kubeconfigPath} get pods -A`);
  await new Promise<void>((resolve) => {
    const stop = (sig: string): void => {
      console.log(`\n${sig}: stopping the simulator`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  await sim.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UnknownScenarioError) {
      console.error(`error: ${err.message}`);
      process.exit(2);
    }
    console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    console.error(USAGE);
    process.exit(2);
  },
);
