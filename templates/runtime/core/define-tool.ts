// Completes the routes of a tool module: the one place the runtime fills in what the modules leave out.

import type {
  ActionRoute,
  ActionSpec,
  ArgumentLocation,
  ArgumentRoute,
  ArgumentSpec,
  BodyKind,
  ByName,
  Style,
  ToolDefinition,
  ToolSpec,
} from './types.js';

/**
 * A tool as the server reads it, from the lean form its module writes (only what differs from OpenAPI's defaults;
 * GitHub's modules were 1.7 MB with every default spelled out). Runs once per tool when its module loads, so every
 * reader of a route sees the same complete object.
 */
export function defineTool(spec: ToolSpec): ToolDefinition {
  return {
    ...spec,
    actions: Object.fromEntries(entries(spec.actions).map(([name, action]) => [name, actionRoute(action)])),
  };
}

/** The own entries of a record by name: the values a module wrote (never Object's inherited members). */
function entries<T>(record: ByName<T>): Array<[string, T]> {
  return Object.entries(record as Record<string, T>);
}

function actionRoute(spec: ActionSpec): ActionRoute {
  const { arguments: written = {}, required = [], security = [], accepts = [], body, ...rest } = spec;
  const args = entries(written).map(([arg, argument]) => argumentRoute(arg, argument));
  // A path parameter is always required (OpenAPI 3.1 §4.8.12.1): modules list only the other required arguments.
  const path = args.filter((argument) => argument.in === 'path').map((argument) => argument.arg);
  return {
    ...rest,
    arguments: args,
    required: [...path, ...required],
    ...(body
      ? {
          body: {
            mediaType: body.mediaType ?? BODY_MEDIA_TYPES[body.kind],
            kind: body.kind,
            required: body.required ?? false,
          },
        }
      : {}),
    security,
    accepts,
  };
}

/** The media type of each kind of body, unless a module names another (`application/vnd.api+json`, `text/csv`). */
const BODY_MEDIA_TYPES: Record<BodyKind, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
  text: 'text/plain',
  binary: 'application/octet-stream',
};

/** OpenAPI's default style of a parameter location (3.1 §4.8.12.4). */
const DEFAULT_STYLE: Record<'path' | 'query' | 'header' | 'cookie', Style> = {
  path: 'simple',
  query: 'form',
  header: 'simple',
  cookie: 'form',
};

function argumentRoute(arg: string, written: ArgumentSpec): ArgumentRoute {
  const spec = typeof written === 'string' ? locationOnly(written) : written;
  if (spec.in === 'body-whole') return { arg, ...spec };
  if (spec.in === 'body') return { arg, ...spec, name: spec.name ?? arg };
  const style = spec.style ?? DEFAULT_STYLE[spec.in];
  return { arg, ...spec, name: spec.name ?? arg, style, explode: spec.explode ?? style === 'form' };
}

function locationOnly(location: ArgumentLocation): Exclude<ArgumentSpec, ArgumentLocation> {
  return location === 'body' ? { in: 'body' } : location === 'body-whole' ? { in: 'body-whole' } : { in: location };
}
