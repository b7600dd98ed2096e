import type { ClusterInfo } from './api';
import { platformOf } from '../../lib/kube/platform';

/** Always says which cluster is shown, and whether it answers. */
export function ClusterBadge({ info }: { info: ClusterInfo }) {
  const dot = info.reachable ? 'bg-emerald-400' : 'bg-red-500';
  const platform = platformOf(info.version);
  return (
    <div
      className="flex items-center gap-2 whitespace-nowrap text-sm"
      data-testid="cluster-badge"
      title={info.server}
    >
      <span className={`inline-block h-2.5 w-2.5 rounded-full ${dot}`} aria-hidden />
      <span className="font-mono text-slate-100" data-testid="cluster-label">
        {info.label}
      </span>
      {info.version && <span className="text-slate-400">{info.version}</span>}
      {platform && (
        <span className="text-slate-200" data-testid="cluster-platform">
          {platform}
        </span>
      )}
      {!info.reachable && <span className="text-red-300">unreachable</span>}
    </div>
  );
}
