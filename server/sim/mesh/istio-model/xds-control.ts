import type { EndpointSlice } from '../../../../lib/kube/types';
import type { SimStore } from '../../store/contracts';
import { XdsModel, type XdsTiming } from './xds-push';

/** Turns a cluster's layer-delay model on (once) and hands it to the mesh emulator. */
export interface XdsControl {
  enable(timing: XdsTiming): XdsModel;
  model(): XdsModel | undefined;
}

/** istiod's informer on the store's EndpointSlices feeds the model from the moment it is on. */
export function createXdsControl(
  store: SimStore,
  now: () => number,
  schedule: (at: number, fn: () => void) => void,
): XdsControl {
  let model: XdsModel | undefined;
  return {
    enable(timing) {
      if (model !== undefined) return model;
      const m = new XdsModel(timing, now, schedule);
      model = m;
      for (const s of store.list<EndpointSlice>('endpointslices')) m.onSlice(s, false);
      store.subscribe?.((c) => {
        if (c.kind === 'endpointslices')
          m.onSlice(c.entry.obj as EndpointSlice, c.type === 'DELETED');
      });
      return m;
    },
    model: () => model,
  };
}
