import { requireName } from '@/lib/kube/names';

export interface PodRef {
  namespace: string;
  name: string;
}

/**
 * The NAMESPACE/NAME of a pod route, validated. Next has already percent-decoded route params
 * once: decoding again would turn `a%25zz` into `a%zz` and then fail with "URI malformed", so
 * the params are used as given and checked against Kubernetes' name rules (InvalidNameError,
 * answered as 400 INVALID_NAME). Await it inside the handler's try so the error is JSON.
 */
export async function podParams(params: Promise<PodRef> | PodRef): Promise<PodRef> {
  const { namespace, name } = await params;
  return { namespace: requireName('namespace', namespace), name: requireName('pod', name) };
}
