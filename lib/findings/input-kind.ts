/**
 * What a file given to `meshdx findings` looks like when it holds no Kubernetes manifest, and
 * which command reads it: an Envoy or ztunnel config dump, a /clusters answer, an access log, a
 * pod watch capture, `kubectl describe` text. Pure: the caller has the text.
 */
import { isJsonObject } from '../json-object';
import { sniffIstioctlOutput } from '../configdump/istioctl-output';

export interface InputKindGuess {
  /** What the file looks like, in words. */
  looksLike: string;
  /** The command that reads it (FILE stands for the file). */
  command: string;
}

function json(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const ACCESS_LINE =
  /^\s*(\S+\s+)?\[\d{4}-\d\d-\d\dT[\d:.]+Z\]\s+"(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|CONNECT|- - -)\b/;

/** A guess for a text that is not a manifest; null when it looks like nothing meshdx reads. */
export function guessInputKind(text: string): InputKindGuess | null {
  const t = text.trimStart();
  const v = t.startsWith('{') || t.startsWith('[') ? json(t) : undefined;
  if (isJsonObject(v)) {
    if (
      Array.isArray(v.configs) &&
      v.configs.some((c) => isJsonObject(c) && String(c['@type']).includes('envoy.admin'))
    ) {
      return { looksLike: 'an Envoy config dump (/config_dump)', command: 'meshdx clusters FILE' };
    }
    const listOrMap = (x: unknown) => Array.isArray(x) || isJsonObject(x);
    if (listOrMap(v.workloads) && listOrMap(v.services)) {
      return { looksLike: 'a ztunnel config dump', command: 'meshdx clusters FILE' };
    }
    if (Array.isArray(v.cluster_statuses) || Array.isArray(v.clusterStatuses)) {
      return { looksLike: "Envoy's /clusters?format=json answer", command: 'meshdx clusters FILE' };
    }
  }
  const istioctl = sniffIstioctlOutput(t);
  if (istioctl) return { looksLike: istioctl, command: 'meshdx clusters FILE' };
  const lines = t.split('\n').filter((l) => l.trim() !== '');
  const first = lines.slice(0, 20);
  if (
    first.length > 0 &&
    first.some((l) => /^\{"type":"(ADDED|MODIFIED|DELETED)"/.test(l.trim()))
  ) {
    return {
      looksLike: 'a pod watch capture (kubectl get pods -w -o json --output-watch-events)',
      command: 'meshdx attribute LOG --history FILE',
    };
  }
  if (first.some((l) => ACCESS_LINE.test(l))) {
    return { looksLike: 'an Envoy access log', command: 'meshdx accesslog FILE' };
  }
  if (/^Name:\s+\S+/m.test(t) && /^Namespace:\s+\S+/m.test(t) && /^Containers:\s*$/m.test(t)) {
    return {
      looksLike: 'kubectl describe pod output (text, not a manifest)',
      command:
        'meshdx findings on `kubectl get pod NAME -o yaml`, or meshdx timeline on the same YAML',
    };
  }
  return null;
}

/** The hint a command prints for a file that is not its kind. */
export function inputKindHint(g: InputKindGuess, file: string): string {
  return `it looks like ${g.looksLike}: ${g.command.replace(/\bFILE\b/, file)} reads it`;
}
