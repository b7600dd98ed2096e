/**
 * The Kubernetes distribution a server's gitVersion names, in words, or null for an upstream
 * build (kind, minikube, kubeadm, AKS and OpenShift report no name there). Managed offerings
 * mark their builds: `v1.30.4-eks-a737599`, `v1.30.5-gke.1014001`, `v1.30.6+k3s1`,
 * `v1.30.6+rke2r1`; the simulator that the demo and the tests run marks its own
 * (`v1.31.0-meshdx-sim`), so the header can say in words that the cluster is simulated.
 */
const PLATFORMS: readonly [RegExp, string][] = [
  [/-meshdx-sim\b/, 'simulated cluster (meshdx simulator)'],
  [/-eks-/, 'Amazon EKS'],
  [/-gke\./, 'Google GKE'],
  [/\+k3s\d*/, 'k3s'],
  [/\+rke2r\d*/, 'RKE2'],
];

export function platformOf(gitVersion: string | null | undefined): string | null {
  if (!gitVersion) return null;
  for (const [re, name] of PLATFORMS) if (re.test(gitVersion)) return name;
  return null;
}
