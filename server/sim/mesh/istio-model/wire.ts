/**
 * Names Istio writes on the wire (labels, annotations, container names), as the simulated
 * injector, CNI agent and istiod use them: istio/istio pkg/config/constants and istio.io/api's
 * label and annotation lists. Facts, not judgements: what the simulator makes of them lives in
 * ./proxy-kind.ts and ./capture.ts.
 */

/** The container the sidecar injector adds (and gateways and waypoints run as). */
export const PROXY_CONTAINER = 'istio-proxy';

/** label.IoIstioDataplaneMode, with constants.DataplaneModeAmbient and DataplaneModeNone. */
export const DATAPLANE_MODE_LABEL = 'istio.io/dataplane-mode';
export const DATAPLANE_MODE_AMBIENT = 'ambient';
export const DATAPLANE_MODE_NONE = 'none';

/** annotation.SidecarStatus: the injector's record that it injected the pod. */
export const SIDECAR_STATUS_ANNOTATION = 'sidecar.istio.io/status';

/** label.IoIstioUseWaypoint and label.IoIstioUseWaypointNamespace; `none` opts out. */
export const USE_WAYPOINT_LABEL = 'istio.io/use-waypoint';
export const USE_WAYPOINT_NAMESPACE_LABEL = 'istio.io/use-waypoint-namespace';
export const USE_WAYPOINT_NONE = 'none';

/** The ztunnel DaemonSet's pods carry `app: ztunnel` in the Istio system namespace. */
export const ZTUNNEL_APP = 'ztunnel';
export const ISTIO_SYSTEM_NAMESPACE = 'istio-system';
