import type { Diagnostics } from '../../diagnostics/diagnostic.js';
import { childPointer } from '../../diagnostics/json-pointer.js';
import { isJsonObject } from '../../kernel/json.js';
import type { OperationModel, ParameterModel, SchemaModel, SecuritySchemeModel } from '../../model/api-model.js';
import { type ArgumentDraft, type HeaderDecisions, type HeaderOptions, type NamedAction } from '../drafts.js';
import { deriveHeaderName } from './header-names.js';
import { isHttpToken } from '../../kernel/http-token.js';
import { credentialWord, personalDataWord, routingWord } from './parameter-signals.js';
import type { HeaderDecision } from '../tool-plan.js';
import { mergeSchemas } from '../arguments/merge-schemas.js';
import { mergeArguments, type MergedArgument } from '../arguments/tool-schema.js';
import { optionMatches } from './header-options.js';
import { resolveRefs } from './resolve-refs.js';
import { compareStrings, wordsOf } from '../text/words.js';

export type HeaderContext = {
  tool: string;
  actions: NamedAction[];
  defs: Record<string, SchemaModel>;
  securitySchemes: readonly SecuritySchemeModel[];
  options: HeaderOptions;
  diagnostics: Diagnostics;
};

const SCALAR_TYPES = new Set(['string', 'integer', 'boolean']);
const COMPOSITION = ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else'];

/** Server variables about transport, not about whom the request is for; a same-named argument is not routing. */
const TRANSPORT_VARIABLES = new Set(['scheme', 'protocol', 'port', 'url', 'path', 'basepath', 'host']);

/** One action's view of a property: the argument and, when it comes from one, the OpenAPI parameter. */
type Source = { action: string; operation: OperationModel; argument: ArgumentDraft; parameter?: ParameterModel };

/** A property that passed every check, waiting for its header name to be proven unique. */
type Candidate = { property: string; header: string; explicit: boolean; reason: string; pointer?: string };

/**
 * Decides which top-level properties of a tool's input schema carry `x-mcp-header`, so that Streamable HTTP clients
 * send their value as an `Mcp-Param-*` header that gateways can route by (SEP-2243). A property is marked when it is
 * asked for (an `x-mcp-header` name on the parameter, or configuration) or routes the request (a routing name such
 * as tenant or account, a path parameter that scopes every action of the tool, a parameter named like a server
 * variable); and, for every action that uses it, it comes from a path, query or header parameter of type exactly
 * string, integer or boolean and is not a secret or personal data (header values are visible to every proxy and
 * log on the way). Explicit markings that cannot be honoured are diagnosed: secrets as OTM_HEADER_REFUSED
 * (warning: nothing is marked), impossible markings as OTM_HEADER_INVALID (error).
 */
export function decideHeaders(context: HeaderContext): HeaderDecisions {
  const refused: HeaderDecision[] = [];
  const candidates: Candidate[] = [];
  const firstPathKeys = context.actions.map((action) => firstPathVariableKey(action.draft.operation, action.draft.arguments));
  for (const merged of mergeArguments(context.actions)) {
    const verdict = judgeProperty(merged, context, firstPathKeys);
    if (verdict && 'refused' in verdict) refused.push({ property: merged.key, reason: verdict.refused });
    else if (verdict) candidates.push(verdict.candidate);
  }
  return { marked: uniqueHeaders(candidates, refused, context), refused: refused.sort((a, b) => compareStrings(a.property, b.property)) };
}

/** Nothing asks to mark the property (undefined), or it is refused with a reason, or it awaits a unique header name. */
type Verdict = { refused: string } | { candidate: Candidate } | undefined;

/** One property of the tool: is it asked for or routing, and can it carry a header? */
function judgeProperty(merged: MergedArgument, context: HeaderContext, firstPathKeys: Array<string | undefined>): Verdict {
  const { options } = context;
  const derive = options.enabled !== false;
  const property = merged.key;
  const sources: Source[] = merged.drafts.map((entry) => {
    const operation = context.actions.find((action) => action.name === entry.action)?.draft.operation as OperationModel;
    return { action: entry.action, operation, argument: entry.argument, ...parameterOf(operation, entry.argument) };
  });
  const added = [...(options.add ?? [])].reverse().find((entry) => optionMatches(entry, context.tool, property));
  const explicit = derive ? sources.filter((source) => typeof source.parameter?.mcpHeader === 'string') : [];
  const reasons: string[] = [];
  if (added) reasons.push('added by configuration');
  if (explicit.length > 0) reasons.push('x-mcp-header in the description');
  // Routing rules read parameters only: a body field named `namespace` is data, not a route.
  if (derive && sources.some((source) => source.parameter))
    reasons.push(...routingReasons(property, sources, context.actions.length, firstPathKeys));
  if (reasons.length === 0) return undefined;
  const pointer = explicit[0]?.parameter ? childPointer(explicit[0].parameter.pointer, 'x-mcp-header') : undefined;
  const refusal = refusalOf(property, sources, { added, explicit, pointer }, context);
  if (refusal) return { refused: refusal };
  const named = headerNameOf(property, added, explicit, sources, context, pointer);
  if (named === null) return { refused: 'its x-mcp-header name is invalid' };
  if (named === undefined) return { refused: 'no header name can be derived from its name' };
  return {
    candidate: {
      property,
      header: named.header,
      explicit: named.explicit,
      reason: reasons.join('; '),
      ...(pointer ? { pointer } : {}),
    },
  };
}

/**
 * Why a property that is asked for or routing cannot be marked, if it cannot: removed by configuration, suppressed
 * by `x-mcp-header: false`, a secret or personal data, or not a scalar parameter. An explicit marking refused for a
 * secret is a warning, one that cannot be honoured at all an error.
 */
function refusalOf(
  property: string,
  sources: Source[],
  asked: { added: { header?: string } | undefined; explicit: Source[]; pointer: string | undefined },
  context: HeaderContext,
): string | undefined {
  const { added, explicit, pointer } = asked;
  const requested = added !== undefined || explicit.length > 0;
  const where = added ? ' (configuration headers.add)' : '';
  if ((context.options.remove ?? []).some((entry) => optionMatches(entry, context.tool, property)))
    return 'removed by configuration (headers.remove)';
  const suppressing = context.options.enabled !== false ? sources.find((source) => source.parameter?.mcpHeader === false) : undefined;
  if (suppressing && !added) return `x-mcp-header: false on ${suppressing.operation.id}`;
  const secret = firstOf(sources, (source) => secretReason(source, context));
  if (secret) {
    if (requested)
      context.diagnostics.warn(
        'OTM_HEADER_REFUSED',
        `Property "${property}" of tool ${context.tool} is not marked with x-mcp-header${where}: ${secret}.`,
        {
          ...(pointer ? { pointer } : {}),
          hint: 'Header values are visible to every proxy and log between client and server; keep secrets and personal data in the body.',
        },
      );
    return secret;
  }
  const shape = firstOf(sources, (source) => shapeProblem(source, context.defs)) ?? mergedShapeProblem(sources, context.defs);
  if (shape) {
    if (requested)
      context.diagnostics.error(
        'OTM_HEADER_INVALID',
        `Property "${property}" of tool ${context.tool} cannot carry x-mcp-header${where}: ${shape}.`,
        {
          ...(pointer ? { pointer } : {}),
          hint: 'Mark only a string, integer or boolean path, query or header parameter, or remove the marking (configuration headers.remove).',
        },
      );
    return shape;
  }
  return undefined;
}

function parameterOf(operation: OperationModel, argument: ArgumentDraft): { parameter?: ParameterModel } {
  const route = argument.route;
  if (route.in === 'body' || route.in === 'body-whole') return {};
  const parameter = operation.parameters.find((candidate) => candidate.in === route.in && candidate.name === route.name);
  return parameter ? { parameter } : {};
}

function firstOf<T>(items: readonly T[], pick: (item: T) => string | undefined): string | undefined {
  for (const item of items) {
    const found = pick(item);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Why a property routes the request, if it does: routing name, scope of every action, server variable. */
function routingReasons(property: string, sources: Source[], actionCount: number, firstPathKeys: Array<string | undefined>): string[] {
  const reasons: string[] = [];
  const word = firstOf(sources, (source) => (source.parameter ? routingWord(source.parameter.name) : undefined));
  if (word) reasons.push(`routing name (${word})`);
  const scoped =
    actionCount > 1 &&
    sources.length === actionCount &&
    firstPathKeys.every((key) => key === property) &&
    sources.some((source) => source.parameter !== undefined && pathContinuesAfter(source.operation.path, source.parameter.name));
  if (scoped) reasons.push('path parameter that scopes every action');
  const variable = firstOf(sources, (source) => (source.parameter ? serverVariableOf(source.parameter.name, source.operation) : undefined));
  if (variable) reasons.push(`fills server variable {${variable}}`);
  return reasons;
}

/** The argument key of the first `{variable}` of an action's path: the outermost scope the action lives in. */
function firstPathVariableKey(operation: OperationModel, args: readonly ArgumentDraft[]): string | undefined {
  const first = /\{([^{}]+)\}/.exec(operation.path.split(/[?#]/)[0] ?? '')?.[1];
  return args.find((argument) => argument.route.in === 'path' && argument.route.name === first)?.key;
}

function pathContinuesAfter(path: string, variable: string): boolean {
  const template = path.split(/[?#]/)[0] ?? path;
  const index = template.indexOf(`{${variable}}`);
  return index >= 0 && template.slice(index + variable.length + 2).replace(/\/+$/, '') !== '';
}

/** The server variable a parameter is named after (`region` for `{region}.api.example.com`), transport ones aside. */
function serverVariableOf(name: string, operation: OperationModel): string | undefined {
  const words = wordsOf(name).join(' ');
  for (const server of operation.servers) {
    for (const variable of server.variables) {
      if (TRANSPORT_VARIABLES.has(variable.name.toLowerCase())) continue;
      if (words !== '' && wordsOf(variable.name).join(' ') === words) return variable.name;
    }
  }
  return undefined;
}

/** Why a value must not travel in a header: cookie, security scheme, credential-like name, personal data. */
function secretReason(source: Source, context: HeaderContext): string | undefined {
  const parameter = source.parameter;
  const names = parameter ? [parameter.name, source.argument.key] : [source.argument.key];
  if (parameter?.in === 'cookie') return 'it is a cookie parameter';
  if (parameter) {
    const scheme = context.securitySchemes.find(
      (candidate) => candidate.kind === 'apiKey' && candidate.name.toLowerCase() === parameter.name.toLowerCase(),
    );
    if (scheme) return `it is named like the credential of security scheme ${scheme.key}`;
  }
  const credential = firstOf(names, credentialWord);
  if (credential) return `its name looks like a credential (${credential})`;
  const personal = firstOf(names, personalDataWord);
  if (personal) return `its name looks like personal data (${personal})`;
  const schema = resolveRefs(source.argument.schema, context.defs);
  if (isJsonObject(schema)) {
    if (schema['format'] === 'password') return 'its schema has format: password';
    if (schema['format'] === 'email') return 'its schema has format: email (personal data)';
    if (schema['writeOnly'] === true) return 'its schema is writeOnly';
  }
  return undefined;
}

/** Why a property cannot carry a header for this action: not a plain parameter, or not exactly a scalar. */
function shapeProblem(source: Source, defs: Record<string, SchemaModel>): string | undefined {
  const parameter = source.parameter;
  if (!parameter)
    return `action ${source.action || source.operation.id} takes it from the request body, not from a path, query or header parameter`;
  if (parameter.contentType) return `it is sent as ${parameter.contentType}, not as a plain value`;
  return scalarProblem(source.argument.schema, defs);
}

/** Several actions sharing a property with different schemas get a union, which a header cannot declare. */
function mergedShapeProblem(sources: Source[], defs: Record<string, SchemaModel>): string | undefined {
  const merged = mergeSchemas(sources.map((source) => source.argument.schema));
  const problem = scalarProblem(merged, defs);
  return problem ? `the actions that use it disagree on its schema (${problem})` : undefined;
}

function scalarProblem(schema: SchemaModel, defs: Record<string, SchemaModel>): string | undefined {
  const resolved = resolveRefs(schema, defs);
  if (!isJsonObject(resolved)) return 'its schema accepts any value';
  const composition = COMPOSITION.find((keyword) => keyword in resolved);
  if (composition) return `its schema uses ${composition}`;
  const type = resolved['type'];
  if (typeof type === 'string' && SCALAR_TYPES.has(type)) return undefined;
  return `its type is ${JSON.stringify(type ?? null)}, not exactly string, integer or boolean`;
}

/**
 * The header name: the configuration's, else the description's `x-mcp-header`, else one derived from the
 * parameter's name. `null` when an explicit name is unusable (diagnosed as an error here).
 */
function headerNameOf(
  property: string,
  added: { header?: string } | undefined,
  explicit: Source[],
  sources: Source[],
  context: HeaderContext,
  pointer: string | undefined,
): { header: string; explicit: boolean } | null | undefined {
  const invalid = (message: string) => {
    context.diagnostics.error('OTM_HEADER_INVALID', `Property "${property}" of tool ${context.tool}: ${message}.`, {
      ...(pointer && !added?.header ? { pointer } : {}),
      hint: "An x-mcp-header value is an RFC 9110 token: letters, digits and !#$%&'*+-.^_`|~, no spaces; unique within a tool, ignoring case.",
    });
    return null;
  };
  if (added?.header !== undefined) {
    if (!isHttpToken(added.header))
      return invalid(`configuration headers.add names the header ${JSON.stringify(added.header)}, which is not an RFC 9110 token`);
    return { header: added.header, explicit: true };
  }
  const names = [...new Set(explicit.map((source) => source.parameter?.mcpHeader as string))];
  const distinct = new Set(names.map((name) => name.toLowerCase()));
  if (distinct.size > 1) return invalid(`its actions mark it with different headers (${names.join(', ')})`);
  const name = names[0];
  if (name !== undefined) {
    if (!isHttpToken(name)) return invalid(`x-mcp-header ${JSON.stringify(name)} is not an RFC 9110 token`);
    return { header: name, explicit: true };
  }
  // Derived from the parameter's own name (`xero-tenant-id`), not the property key, which may carry a prefix.
  const header = deriveHeaderName(sources.find((source) => source.parameter)?.parameter?.name ?? property);
  return header === undefined ? undefined : { header, explicit: false };
}

/**
 * Header names unique within the tool, ignoring case. Explicit names are placed first; a clash between two
 * explicit names is an error, a derived name that clashes is refused (the property stays unmarked).
 */
function uniqueHeaders(candidates: Candidate[], refused: HeaderDecision[], context: HeaderContext): HeaderDecision[] {
  const ordered = [...candidates].sort((a, b) => Number(b.explicit) - Number(a.explicit) || compareStrings(a.property, b.property));
  const taken = new Map<string, Candidate>();
  const marked: HeaderDecision[] = [];
  for (const candidate of ordered) {
    const holder = taken.get(candidate.header.toLowerCase());
    if (holder) {
      if (candidate.explicit)
        context.diagnostics.error(
          'OTM_HEADER_INVALID',
          `Properties "${holder.property}" and "${candidate.property}" of tool ${context.tool} both use the header ${candidate.header} (header names ignore case).`,
          { ...(candidate.pointer ? { pointer: candidate.pointer } : {}), hint: 'Give one of them another x-mcp-header name.' },
        );
      refused.push({ property: candidate.property, reason: `its header name ${candidate.header} is already used by "${holder.property}"` });
      continue;
    }
    taken.set(candidate.header.toLowerCase(), candidate);
    marked.push({ property: candidate.property, header: candidate.header, reason: candidate.reason });
  }
  return marked.sort((a, b) => compareStrings(a.property, b.property));
}
