import { AGE, age, col, conditionStatus, list, NAME, str, type Printer } from './printers';

/**
 * Table columns of the Istio and Gateway API kinds, after their CRDs'
 * additionalPrinterColumns (what `kubectl get` prints for them on a real cluster).
 */
export const MESH_PRINTERS: Record<string, Printer> = {
  virtualservices: {
    columns: [
      NAME,
      col('Gateways', 'The names of gateways and sidecars that should apply these routes'),
      col('Hosts', 'The destination hosts to which traffic is being sent'),
      AGE,
    ],
    cells: (o, now) => [
      o.metadata.name,
      JSON.stringify(list(o, 'spec.gateways')),
      JSON.stringify(list(o, 'spec.hosts')),
      age(o, now),
    ],
  },
  destinationrules: {
    columns: [NAME, col('Host', 'The name of a service from the service registry'), AGE],
    cells: (o, now) => [o.metadata.name, str(o, 'spec.host', ''), age(o, now)],
  },
  serviceentries: {
    columns: [
      NAME,
      col('Hosts', 'The hosts associated with the ServiceEntry'),
      col(
        'Location',
        'Whether the service is external to the mesh or part of the mesh (MESH_EXTERNAL or MESH_INTERNAL)',
      ),
      col('Resolution', 'Service resolution mode for the hosts (NONE, STATIC, or DNS)'),
      AGE,
    ],
    cells: (o, now) => [
      o.metadata.name,
      JSON.stringify(list(o, 'spec.hosts')),
      str(o, 'spec.location', ''),
      str(o, 'spec.resolution', ''),
      age(o, now),
    ],
  },
  authorizationpolicies: {
    columns: [NAME, col('Action', 'The operation to take.'), AGE],
    cells: (o, now) => [o.metadata.name, str(o, 'spec.action', ''), age(o, now)],
  },
  peerauthentications: {
    columns: [NAME, col('Mode', 'Defines the mTLS mode used for peer authentication.'), AGE],
    cells: (o, now) => [o.metadata.name, str(o, 'spec.mtls.mode', ''), age(o, now)],
  },
  k8sgateways: {
    columns: [
      NAME,
      col('Class', 'GatewayClass the Gateway uses'),
      col('Address', 'Address of the Gateway'),
      col('Programmed', 'Whether the Gateway is programmed'),
      AGE,
    ],
    cells: (o, now) => [
      o.metadata.name,
      str(o, 'spec.gatewayClassName', ''),
      str(list(o, 'status.addresses')[0], 'value', ''),
      conditionStatus(o, 'Programmed'),
      age(o, now),
    ],
  },
  httproutes: {
    columns: [NAME, col('Hostnames', 'Hostnames the route matches'), AGE],
    cells: (o, now) => [o.metadata.name, JSON.stringify(list(o, 'spec.hostnames')), age(o, now)],
  },
  grpcroutes: {
    columns: [NAME, col('Hostnames', 'Hostnames the route matches'), AGE],
    cells: (o, now) => [o.metadata.name, JSON.stringify(list(o, 'spec.hostnames')), age(o, now)],
  },
  gatewayclasses: {
    columns: [
      NAME,
      col('Controller', 'The controller that manages Gateways of this class'),
      col('Accepted', 'Whether the controller accepted the class'),
      AGE,
    ],
    cells: (o, now) => [
      o.metadata.name,
      str(o, 'spec.controllerName', ''),
      conditionStatus(o, 'Accepted'),
      age(o, now),
    ],
  },
};
