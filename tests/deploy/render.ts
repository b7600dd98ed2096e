import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { KUBECTL } from '../sim/kubectl-harness';

const exec = promisify(execFile);

export const DEPLOY_DIR = path.resolve(import.meta.dirname, '..', '..', 'deploy');
export const OVERLAYS = [
  'base',
  'with-prometheus',
  'network-policy',
  'port-forward-only',
  'token-auth',
  'header-auth',
  'with-access-log',
] as const;
export type Overlay = (typeof OVERLAYS)[number];

/** The fields of rendered objects these tests read; the rest is kept as `unknown`. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export interface ManifestContainer {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string; optional?: boolean } }[];
  securityContext?: Record<string, unknown>;
  readinessProbe?: { httpGet?: { path: string; httpHeaders?: { name: string; value: string }[] } };
  volumeMounts?: { name: string; mountPath: string }[];
}

export interface ManifestDeployment extends K8sObject {
  spec: {
    replicas: number;
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        serviceAccountName: string;
        securityContext: Record<string, unknown>;
        containers: ManifestContainer[];
        volumes: {
          name: string;
          emptyDir?: unknown;
          persistentVolumeClaim?: { claimName: string };
        }[];
      };
    };
  };
}

export interface NetworkPolicy extends K8sObject {
  spec: {
    podSelector: { matchLabels: Record<string, string> };
    policyTypes: string[];
    ingress?: {
      from?: {
        namespaceSelector?: {
          matchLabels?: Record<string, string>;
          matchExpressions?: { key: string; operator: string }[];
        };
      }[];
      ports?: { port: string | number }[];
    }[];
  };
}

export interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

export function overlayDir(overlay: Overlay): string {
  return overlay === 'base'
    ? path.join(DEPLOY_DIR, 'base')
    : path.join(DEPLOY_DIR, 'overlays', overlay);
}

/** `kubectl kustomize DIR`, parsed; a YAML error fails loudly. */
export async function render(overlay: Overlay): Promise<{ text: string; objects: K8sObject[] }> {
  const { stdout } = await exec(KUBECTL, ['kustomize', overlayDir(overlay)], { timeout: 30_000 });
  const objects = parseAllDocuments(stdout).map((d) => {
    if (d.errors.length > 0) throw new Error(`${overlay}: ${d.errors[0]?.message}`);
    return d.toJS() as K8sObject;
  });
  return { text: stdout, objects };
}

export function one<T extends K8sObject>(objects: K8sObject[], kind: string, name?: string): T {
  const found = objects.filter(
    (o) => o.kind === kind && (name === undefined || o.metadata.name === name),
  );
  if (found.length !== 1)
    throw new Error(`expected one ${kind}${name ? ` ${name}` : ''}, found ${found.length}`);
  return found[0] as T;
}
