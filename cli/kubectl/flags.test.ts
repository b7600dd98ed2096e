import { describe, expect, it } from 'vitest';
import { kubectlGlobalArgs, readKubectlFlags } from './flags';

describe("kubectl's flags as a plugin gets them", () => {
  it('reads every form kubectl takes and leaves the rest in order', () => {
    const f = readKubectlFlags([
      '--json',
      '-nshop',
      '--context=prod',
      '--kubeconfig',
      '/k',
      '-S',
      'IST0103=Pod *.shop',
      '-i',
      'istio-control',
    ]);
    expect(f).toEqual({
      context: 'prod',
      kubeconfig: '/k',
      namespace: 'shop',
      allNamespaces: false,
      istioNamespace: 'istio-control',
      rest: ['--json', '-S', 'IST0103=Pod *.shop'],
    });
    expect(readKubectlFlags(['--namespace=ops', '-A'])).toMatch(/give one/);
    expect(readKubectlFlags(['-A', 'x'])).toMatchObject({ allNamespaces: true, rest: ['x'] });
  });

  it('keeps what follows -- for the command, and refuses a flag without its value', () => {
    expect(readKubectlFlags(['--', '-n', 'x'])).toMatchObject({
      namespace: null,
      rest: ['--', '-n', 'x'],
    });
    expect(readKubectlFlags(['--context'])).toBe('--context needs a value');
    expect(readKubectlFlags(['--context='])).toBe('--context needs a value');
    expect(readKubectlFlags(['-n', 'Not_A_Namespace'])).toMatch(/^-n: /);
  });

  it('passes the kubeconfig and context before the verb', () => {
    expect(kubectlGlobalArgs({ context: 'c', kubeconfig: '/k' })).toEqual([
      '--kubeconfig',
      '/k',
      '--context',
      'c',
    ]);
    expect(kubectlGlobalArgs({ context: null, kubeconfig: null })).toEqual([]);
  });
});
