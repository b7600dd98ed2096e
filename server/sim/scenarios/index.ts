import type { Scenario } from '../world/types';
import { startupRace } from './startup-race';
import { phantom503, phantomSlowAck, phantomSlowPush, phantomSlowSlices } from './phantom-503';
import { phantomOtlp } from './phantom-otlp';
import { phantomSlowZtunnel } from './phantom-ambient';
import { phantomCrossNs } from './phantom-cross-ns';
import { unscopedMesh } from './unscoped-mesh';
import { portNaming } from './port-naming';
import { demo } from './demo';
import { scale } from './scale';
import { nativeSidecar } from './native-sidecar';
import { ambient } from './ambient';

const ALL: readonly Scenario[] = [
  demo,
  startupRace,
  phantom503,
  phantomSlowSlices,
  phantomSlowPush,
  phantomSlowAck,
  phantomSlowZtunnel,
  phantomOtlp,
  phantomCrossNs,
  unscopedMesh,
  portNaming,
  scale,
  nativeSidecar,
  ambient,
];

export function getScenario(name: string): Scenario | undefined {
  return ALL.find((s) => s.name === name);
}

export function scenarioNames(): string[] {
  return ALL.map((s) => s.name);
}

export function describeScenarios(): { name: string; description: string }[] {
  return ALL.map((s) => ({ name: s.name, description: s.description }));
}

export { phantomTruth, type PhantomTruth } from './phantom-503';
