/** DestinationRule lookup: the pure rule lives in lib/scoping (shared with the Scoping analysis). */
export { destinationRuleFor, indexDestinationRules } from '../../../lib/scoping/destinationrule';
export type { DestinationRuleIndex } from '../../../lib/scoping/destinationrule';
