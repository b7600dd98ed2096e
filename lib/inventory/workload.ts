export { workloadOf, type WorkloadRef } from '../kube/workload';
