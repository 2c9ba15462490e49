import type { ConfirmOptions } from '../emit/confirm-defaults.js';
import type { Target } from '../emit/emit-project.js';
import type { LoadOptions } from '../load/load-spec.js';
import type { IconSources } from '../load/read-icons.js';
import type { AddedCredential } from '../model/add-credentials.js';
import type { OperationOverride } from '../model/apply-overrides.js';
import type { HeaderOptions } from '../plan/drafts.js';
import type { BudgetOptions, PlannerOptions } from '../plan/drafts.js';
import type { SurfaceRequest } from '../search/search-plan.js';
import { CONFIG_DEFAULTS } from './config-schema.js';

/**
 * The options of a plan as a caller gives them — the CLI (flags over the configuration file), the configuration file
 * alone (`loadConfig`) or the programmatic API: only `spec` is required; resolveOptions fills in the rest.
 */
export type PlanSettings = Omit<LoadOptions, 'maxInputBytes'> &
  Partial<Omit<PlannerOptions, 'budget' | 'memo' | 'unlistedWhenOverBudget'>> & {
    /** Largest description accepted, in bytes. */
    maxInputBytes?: number;
    budget?: Partial<BudgetOptions>;
    /**
     * Per-operation `x-mcp` fields and parameter types from configuration, keyed by operationId or `METHOD /path`;
     * they win over the description's.
     */
    overrides?: Record<string, OperationOverride>;
    /** The file the overrides came from, named in their diagnostics. */
    overridesFile?: string;
    /** What `tools/list` serves: `static`, `search`, or `auto` (search when the static plan misses its budget). */
    surface?: SurfaceRequest;
    /** The API's name for the project and its variables; default from the title or what else identifies the API. */
    name?: string;
    /** Credentials the description does not declare, added as security schemes. */
    credentials?: AddedCredential[];
    /** The server's and the tools' icons: file paths or `data:` URIs, embedded at generation. */
    icons?: IconSources;
  };

/** The options of a generation as a caller gives them: a plan's, and where and how the project is written. */
export type GenerateSettings = PlanSettings & {
  /** Output folder; default `./<api-slug>-mcp`. */
  out?: string;
  /** Compare with the output folder instead of writing; `stale` lists what differs. */
  check?: boolean;
  force?: boolean;
  packageName?: string;
  /** Ignore the names the lock file pins and plan from scratch (a deliberate regrouping). */
  regroup?: boolean;
  /** `workers` adds a Cloudflare Workers entry to the project. */
  target?: Target;
  /** Reuse and keep the regeneration cache in the output folder (the output is the same either way). */
  cache?: boolean;
  /** Also write the deployment files (Docker, Kubernetes, MCP Bundle manifest). */
  deploy?: boolean;
  /** Whether the generated server asks the user before a tool that deletes sends its request. */
  confirm?: ConfirmOptions;
};

/** The one options type the stages are given: a caller's settings with every default applied. */
export type ResolvedOptions = Omit<GenerateSettings, keyof Defaulted> & PlannerOptions & Defaulted;

type Defaulted = {
  budget: BudgetOptions;
  headers: HeaderOptions & { enabled: boolean };
  surface: SurfaceRequest;
  target: Target;
  deploy: boolean;
  maxInputBytes: number;
  allowRemoteRefs: boolean;
  validate: boolean;
  check: boolean;
  force: boolean;
  regroup: boolean;
  cache: boolean;
};

/** Applies CONFIG_DEFAULTS (the configuration schema's defaults) to every option a caller left unset. */
export function resolveOptions<T extends GenerateSettings>(settings: T): T & ResolvedOptions {
  return {
    ...settings,
    strategy: settings.strategy ?? CONFIG_DEFAULTS.strategy,
    maxTools: settings.maxTools ?? CONFIG_DEFAULTS.maxTools,
    maxNameLength: settings.maxNameLength ?? CONFIG_DEFAULTS.maxNameLength,
    budget: {
      maxToolTokens: settings.budget?.maxToolTokens ?? CONFIG_DEFAULTS.maxToolTokens,
      tokensPerOperation: settings.budget?.tokensPerOperation ?? CONFIG_DEFAULTS.tokensPerOperation,
      maxTotalTokens: settings.budget?.maxTotalTokens ?? CONFIG_DEFAULTS.maxTotalTokens,
    },
    outputSchema: settings.outputSchema ?? CONFIG_DEFAULTS.outputSchema,
    headers: { ...settings.headers, enabled: settings.headers?.enabled ?? CONFIG_DEFAULTS.headersEnabled },
    surface: settings.surface ?? CONFIG_DEFAULTS.surface,
    target: settings.target ?? CONFIG_DEFAULTS.target,
    deploy: settings.deploy ?? CONFIG_DEFAULTS.deploy,
    maxInputBytes: settings.maxInputBytes ?? megabytes(CONFIG_DEFAULTS.maxInputMb),
    allowRemoteRefs: settings.allowRemoteRefs ?? CONFIG_DEFAULTS.allowRemoteRefs,
    validate: settings.validate ?? CONFIG_DEFAULTS.validate,
    check: settings.check ?? false,
    force: settings.force ?? false,
    regroup: settings.regroup ?? false,
    cache: settings.cache ?? CONFIG_DEFAULTS.cache,
  };
}

/** `maxInputMb` of the configuration, in bytes. */
export function megabytes(value: number): number {
  return Math.round(value * 1024 * 1024);
}
