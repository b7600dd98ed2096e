/**
 * What a pasted text looks like, for a command given a file of another kind: which kind it is
 * and which meshdx command reads it. Only the kinds meshdx reads from pastes are named here.
 */
import { isZtunnelAccessLine } from './accesslog/ztunnel';
import { readZtunnelConfigOutput } from './ambient/istioctl-output';

export interface PastedKind {
  kind: string;
  command: 'meshdx accesslog' | 'meshdx clusters' | 'meshdx timeline';
}

/** Looks at the first lines (and, for istioctl output, the whole text) of a file. */
export function pastedKind(text: string): PastedKind | null {
  const zc = readZtunnelConfigOutput(text);
  if (zc)
    return {
      kind: `\`istioctl ztunnel-config ${zc.command}\` output (${zc.form})`,
      command: 'meshdx clusters',
    };
  const head = text.split('\n', 40).map((l) => l.replace(/\r$/, ''));
  if (head.some((l) => isZtunnelAccessLine(l.trimStart())))
    return { kind: 'a ztunnel access log', command: 'meshdx accesslog' };
  return null;
}

/** The sentence a command adds when it was given another kind of file. */
export function pastedKindHint(text: string, self: PastedKind['command']): string | null {
  const k = pastedKind(text);
  if (!k || k.command === self) return null;
  return `this looks like ${k.kind}: \`${k.command} FILE\` reads it`;
}
