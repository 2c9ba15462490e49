import type { DiagnosticCode } from './codes.js';

export type Severity = 'error' | 'warning' | 'info';

/**
 * A problem found in the input, the options or the output folder. Diagnostics are values: every stage
 * collects them instead of throwing, so one run reports every problem at once.
 */
export type Diagnostic = {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  /** RFC 6901 JSON pointer into the (bundled) description, as a URI fragment: `#/paths/~1pets/get`. */
  pointer?: string;
  /** File the problem is in, relative to the working directory, when it is not the entry description. */
  file?: string;
  line?: number;
  column?: number;
  hint?: string;
};

/** Collects diagnostics across stages; the CLI decides how to print them and which exit code they mean. */
export class Diagnostics {
  readonly items: Diagnostic[] = [];
  private readonly pending: Array<{ at: number; items: Promise<Diagnostic[]> }> = [];

  add(diagnostic: Diagnostic): void {
    this.items.push(diagnostic);
  }

  error(code: DiagnosticCode, message: string, details: Omit<Diagnostic, 'severity' | 'code' | 'message'> = {}): void {
    this.add({ severity: 'error', code, message, ...details });
  }

  warn(code: DiagnosticCode, message: string, details: Omit<Diagnostic, 'severity' | 'code' | 'message'> = {}): void {
    this.add({ severity: 'warning', code, message, ...details });
  }

  /**
   * Diagnostics that are being computed concurrently (schema validation of a large description runs in a worker
   * thread). `settle` puts them exactly where they would be had they been added now, so the order never depends
   * on timing.
   */
  defer(items: Promise<Diagnostic[]>): void {
    this.pending.push({ at: this.items.length, items });
  }

  /** Waits for every deferred batch and inserts it in place. */
  async settle(): Promise<void> {
    const pending = this.pending.splice(0);
    const batches = await Promise.all(pending.map((entry) => entry.items));
    for (let index = pending.length - 1; index >= 0; index--) {
      this.items.splice((pending[index] as { at: number }).at, 0, ...(batches[index] ?? []));
    }
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }

  get errors(): Diagnostic[] {
    return this.items.filter((d) => d.severity === 'error');
  }

  get warnings(): Diagnostic[] {
    return this.items.filter((d) => d.severity === 'warning');
  }
}

/**
 * Thrown to stop a stage when continuing makes no sense (the input is not an OpenAPI document at all). The
 * diagnostics it carries are already in the collector; the pipeline turns the throw into a failed result.
 */
export class InputRejected extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join('; '));
    this.name = 'InputRejected';
  }
}
