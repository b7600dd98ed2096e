/** The token-checking simulated cluster of the identity tests (shared with e2e). */
export * from '../../test-support/auth-cluster';
