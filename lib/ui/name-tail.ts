/**
 * The part of a name that tells it apart from its neighbours, kept whole when the name has to be
 * shortened on screen (the rest gives way with an ellipsis in the middle). Pods of one workload
 * share everything but the ReplicaSet's and the pod's generated suffixes
 * (`gateway-wzws5rjrcb-2qc4x`): those stay; a name without such suffixes keeps its last
 * `fallback` characters. Splits `name` into `[head, tail]`, `head + tail === name`.
 */
export function splitNameTail(name: string, fallback = 12): [string, string] {
  const parts = name.split('-');
  // the pod hash (5) and, before it, the ReplicaSet's pod-template hash (up to 10 in practice)
  const generated = (s: string | undefined, max: number) =>
    s !== undefined && s.length >= 4 && s.length <= max && /^[a-z0-9]+$/.test(s);
  let keep = 0;
  if (parts.length >= 3 && generated(parts.at(-1), 5) && generated(parts.at(-2), 10)) keep = 2;
  else if (parts.length >= 2 && generated(parts.at(-1), 10)) keep = 1;
  const tailLen =
    keep > 0
      ? parts.slice(-keep).join('-').length + 1
      : Math.min(name.length, Math.max(0, fallback));
  const cut = Math.max(0, name.length - tailLen);
  return [name.slice(0, cut), name.slice(cut)];
}
