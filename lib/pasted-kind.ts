/**
 * What a pasted text looks like, for a command given a file of another kind: which kind it is
 * and which meshdx command reads it. Only the kinds meshdx reads from pastes are named here.
 * Only the start of the text is looked at (a command may hold just that, and the kind shows
 * there): never a whole parse.
 */
import { isZtunnelAccessLine } from './accesslog/ztunnel';
import { sniffZtunnelOutput } from './ambient/istioctl-output';
import { describedKind } from './timeline/describe';
import { sniffIstioctlOutput } from './configdump/istioctl-output';

export interface PastedKind {
  kind: string;
  /** The command that reads it; null when no meshdx command reads this kind. */
  command: 'meshdx accesslog' | 'meshdx clusters' | 'meshdx timeline' | null;
  /** What to paste instead, when no command reads it. */
  instead?: string;
}

/** Looks at the first 64 KiB (istioctl output, describe) and the first 40 lines of a text. */
export function pastedKind(text: string): PastedKind | null {
  const zc = sniffZtunnelOutput(text);
  if (zc)
    return {
      kind:
        zc.command === 'all' && zc.form === 'json'
          ? 'a ztunnel config dump (`istioctl ztunnel-config all -o json`)'
          : `\`istioctl ztunnel-config ${zc.command}\` output (${zc.form})`,
      command: 'meshdx clusters',
    };
  const istioctl = sniffIstioctlOutput(text);
  if (istioctl) return { kind: istioctl, command: 'meshdx clusters' };
  const described = describedKind(text);
  if (described === 'pod')
    return { kind: '`kubectl describe pod` output', command: 'meshdx timeline' };
  if (described)
    return {
      kind: `\`kubectl describe ${described}\` output`,
      command: null,
      instead:
        'meshdx reads `kubectl describe pod` (meshdx timeline), and manifests as `kubectl get KIND NAME -o yaml` (meshdx findings)',
    };
  const head = text
    .slice(0, 64 * 1024)
    .split('\n', 40)
    .map((l) => l.replace(/\r$/, ''));
  if (head.some((l) => isZtunnelAccessLine(l.trimStart())))
    return { kind: 'a ztunnel access log', command: 'meshdx accesslog' };
  return null;
}

/** The sentence a command adds when it was given another kind of file. */
export function pastedKindHint(text: string, self: PastedKind['command']): string | null {
  const k = pastedKind(text);
  if (!k || k.command === self) return null;
  if (k.command === null)
    return `this looks like ${k.kind}: ${k.instead ?? 'no meshdx command reads it'}`;
  return `this looks like ${k.kind}: \`${k.command} FILE\` reads it`;
}
