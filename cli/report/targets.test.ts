import { describe, it, expect } from 'vitest';
import { defaultOutDir, utcStamp } from './stamp';
import { planPages, resolveLink, slugOfPath } from './targets';

describe('planPages', () => {
  it('views in order with ?namespace=, then links, numbered files', () => {
    const r = planPages({
      url: 'http://127.0.0.1:3000/',
      views: ['overview', 'proxies'],
      links: ['http://localhost:8080/incidents?at=2026-11-01T12:00:00Z&ip=10.1.2.3'],
      namespace: 'shop',
    });
    expect(r.errors).toEqual([]);
    expect(r.pages).toEqual([
      {
        name: 'overview',
        url: 'http://127.0.0.1:3000/?namespace=shop',
        file: '01-overview.png',
        kind: 'view',
      },
      {
        name: 'proxies',
        url: 'http://127.0.0.1:3000/proxies?namespace=shop',
        file: '02-proxies.png',
        kind: 'view',
      },
      {
        name: 'link-1-incidents',
        url: 'http://127.0.0.1:3000/incidents?at=2026-11-01T12:00:00Z&ip=10.1.2.3',
        file: '03-link-1-incidents.png',
        kind: 'link',
      },
    ]);
    expect(r.notes).toHaveLength(1);
    expect(r.notes[0]).toContain('http://127.0.0.1:3000/incidents');
  });

  it('keeps a base path prefix (meshdx behind a path on an ingress)', () => {
    const r = planPages({
      url: 'https://tools.example/meshdx/',
      views: ['timelines'],
      links: ['/pods/shop/cart-1', 'https://tools.example/meshdx/scoping'],
      namespace: null,
    });
    expect(r.pages.map((p) => p.url)).toEqual([
      'https://tools.example/meshdx/timelines',
      'https://tools.example/meshdx/pods/shop/cart-1',
      'https://tools.example/meshdx/scoping',
    ]);
    expect(r.pages.map((p) => p.name)).toEqual([
      'timelines',
      'link-1-pods-shop-cart-1',
      'link-2-scoping',
    ]);
    expect(r.notes).toEqual([]);
  });

  it('collects bad links as errors and keeps the rest', () => {
    const r = planPages({
      url: 'http://h/',
      views: [],
      links: ['javascript:alert(1)', '/findings'],
      namespace: null,
    });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toContain('javascript:alert(1)');
    expect(r.pages.map((p) => p.file)).toEqual(['01-link-2-findings.png']);
  });
});

describe('resolveLink / slugOfPath', () => {
  it('same origin is not a rebase; fragments are kept', () => {
    expect(resolveLink('http://h:1/incidents#pod', 'http://h:1/')).toEqual({
      url: 'http://h:1/incidents#pod',
      rebased: false,
    });
  });
  it('slugs', () => {
    expect(slugOfPath('/')).toBe('overview');
    expect(slugOfPath('/Timelines/')).toBe('timelines');
    expect(slugOfPath('/a/' + 'x'.repeat(60))).toHaveLength(40);
  });
});

describe('utcStamp', () => {
  it('is UTC, sortable and has no colons', () => {
    const d = new Date('2026-03-04T05:06:07.890+02:00');
    expect(utcStamp(d)).toBe('20260304T030607Z');
    expect(defaultOutDir(d)).toBe('meshdx-report-20260304T030607Z');
  });
});

describe('--snapshot pages', () => {
  const ID = 'Zm9vYmFyYmF6cXV4cXV1eA';
  it('captures the snapshot page and its JSON, an id or a Share link with its context', () => {
    const r = planPages({
      url: 'http://127.0.0.1:3000/',
      views: ['overview'],
      links: [],
      snapshots: [ID, `http://elsewhere:8080/snapshots/${ID}?context=prod`],
      namespace: null,
    });
    expect(r.errors).toEqual([]);
    expect(r.pages.slice(1)).toEqual([
      {
        name: `snapshot-${ID}`,
        url: `http://127.0.0.1:3000/snapshots/${ID}`,
        file: `02-snapshot-${ID}.png`,
        kind: 'snapshot',
        json: {
          url: `http://127.0.0.1:3000/api/snapshots/${ID}`,
          file: `02-snapshot-${ID}.json`,
        },
      },
      {
        name: `snapshot-${ID}`,
        url: `http://127.0.0.1:3000/snapshots/${ID}?context=prod`,
        file: `03-snapshot-${ID}.png`,
        kind: 'snapshot',
        json: {
          url: `http://127.0.0.1:3000/api/snapshots/${ID}?context=prod`,
          file: `03-snapshot-${ID}.json`,
        },
      },
    ]);
  });
});
