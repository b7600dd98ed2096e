/**
 * A Kubernetes LabelSelector (matchLabels and matchExpressions) judged on a set of labels, as
 * metav1.LabelSelectorAsSelector and Selector.Matches judge it: an absent selector matches
 * everything (a webhook's default), an empty one too; a selector Kubernetes would refuse
 * (an unknown operator, In/NotIn without values, Exists/DoesNotExist with values, a key that is
 * not a string) matches nothing.
 */
import { list, obj, strings } from './raw';

export function labelSelectorMatches(
  selector: unknown,
  labels: Readonly<Record<string, string>>,
): boolean {
  if (selector === undefined || selector === null) return true;
  const s = obj(selector);
  if (s === null) return false;
  if (s.matchLabels !== undefined && s.matchLabels !== null && obj(s.matchLabels) === null)
    return false;
  for (const [k, v] of Object.entries(obj(s.matchLabels) ?? {})) {
    if (typeof v !== 'string' || !Object.hasOwn(labels, k) || labels[k] !== v) return false;
  }
  for (const raw of list(s.matchExpressions)) {
    const e = obj(raw);
    const key = e?.key;
    if (e === null || typeof key !== 'string') return false;
    const values = strings(e.values);
    const has = Object.hasOwn(labels, key);
    const value = has ? (labels[key] ?? '') : '';
    switch (e.operator) {
      case 'In':
        if (values.length === 0 || !has || !values.includes(value)) return false;
        break;
      case 'NotIn':
        if (values.length === 0 || (has && values.includes(value))) return false;
        break;
      case 'Exists':
        if (values.length > 0 || !has) return false;
        break;
      case 'DoesNotExist':
        if (values.length > 0 || has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
