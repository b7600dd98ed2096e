import { splitNameTail } from '../../lib/ui/name-tail';

/**
 * A name that may not fit its cell: the start gives way with an ellipsis, the part that tells it
 * apart from its neighbours (a pod's generated suffixes) stays whole. The text is the whole name,
 * for screen readers, search and copy; the title shows it on hover.
 */
export function ElidedName({ name, className = '' }: { name: string; className?: string }) {
  const [head, tail] = splitNameTail(name);
  return (
    <span className={`inline-flex min-w-0 max-w-full ${className}`} title={name}>
      <span className="min-w-[1ch] truncate">{head}</span>
      <span className="shrink-0 whitespace-nowrap">{tail}</span>
    </span>
  );
}
