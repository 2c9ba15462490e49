import type { Pass } from './contract-arguments.js';

/**
 * Calls Prism rejects because the description itself is wrong, not the generated request. Each entry names the
 * operation, the pass (`required`, `optional` or both), a JSON pointer to the defect in the description, why, and
 * a fragment of Prism's reason that must match. The contract test fails on a rejection not listed here and on an
 * entry that no longer fails (stale), so this list only ever documents real, current defects.
 */
export type ExpectedFailure = {
  description: string;
  operation: string;
  pass: Pass | 'both';
  pointer: string;
  reason: string;
  /** A fragment of Prism's reason (or of the tool's error text for calls that were not sent). */
  match: string;
};

export const EXPECTED_FAILURES: ExpectedFailure[] = [];
