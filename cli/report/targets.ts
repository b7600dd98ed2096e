import { VIEW_PATHS, type PagePlan, type ReportOptions } from './model';
import { snapshotRef } from './options';

export type LinkTarget = { url: string; rebased: boolean } | { error: string };

/**
 * A deep link pasted from the UI, aimed at the dashboard being captured. Absolute links keep their
 * path, query and fragment but take the --url origin (the link was copied through someone else's
 * port-forward); relative links (`/incidents?...`) are resolved the same way.
 */
export function resolveLink(link: string, base: string): LinkTarget {
  const b = new URL(base);
  let u: URL;
  try {
    u = new URL(link, b);
  } catch {
    return { error: `--link ${link} is not a URL` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return { error: `--link ${link}: only http:// and https:// links are supported` };
  const rebased = u.origin !== b.origin;
  const prefix = b.pathname;
  const path = u.pathname.startsWith(prefix) ? u.pathname : prefix + u.pathname.replace(/^\//, '');
  const out = new URL(b.origin);
  out.pathname = path;
  out.search = u.search;
  out.hash = u.hash;
  return { url: out.toString(), rebased };
}

/** `/incidents?x=1` -> `incidents`; `/` -> `overview`; `/pods/ns/name` -> `pods-ns-name`. */
export function slugOfPath(pathname: string, prefix = '/'): string {
  const rest = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : pathname;
  const slug = rest
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'overview';
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The pages to capture, in order: the views (with `?namespace=` when given), then the links.
 * Names are unique; files are numbered so the directory lists in capture order.
 */
export function planPages(
  o: Pick<ReportOptions, 'url' | 'views' | 'links' | 'namespace'> &
    Partial<Pick<ReportOptions, 'snapshots'>>,
): {
  pages: PagePlan[];
  notes: string[];
  errors: string[];
} {
  const pages: PagePlan[] = [];
  const notes: string[] = [];
  const errors: string[] = [];
  for (const view of o.views) {
    const u = new URL(VIEW_PATHS[view], o.url);
    if (o.namespace) u.searchParams.set('namespace', o.namespace);
    const n = pages.length + 1;
    pages.push({ name: view, url: u.toString(), file: `${pad(n)}-${view}.png`, kind: 'view' });
  }
  o.links.forEach((link, i) => {
    const t = resolveLink(link, o.url);
    if ('error' in t) {
      errors.push(t.error);
      return;
    }
    if (t.rebased) notes.push(`--link ${link} is captured at ${t.url} (the --url origin)`);
    const name = `link-${i + 1}-${slugOfPath(new URL(t.url).pathname, new URL(o.url).pathname)}`;
    const n = pages.length + 1;
    pages.push({ name, url: t.url, file: `${pad(n)}-${name}.png`, kind: 'link' });
  });
  for (const raw of o.snapshots ?? []) {
    const ref = snapshotRef(raw);
    if (ref === null) {
      errors.push(`--snapshot ${raw} is not a snapshot id or link`);
      continue;
    }
    const n = pages.length + 1;
    const name = `snapshot-${ref.id}`;
    pages.push({
      name,
      url: new URL(`snapshots/${ref.id}${ref.search}`, o.url).toString(),
      file: `${pad(n)}-${name}.png`,
      kind: 'snapshot',
      json: {
        url: new URL(`api/snapshots/${ref.id}${ref.search}`, o.url).toString(),
        file: `${pad(n)}-${name}.json`,
      },
    });
  }
  return { pages, notes, errors };
}
