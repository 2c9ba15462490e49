import path from 'node:path';
import { Diagnostics } from '../diagnostics/diagnostic.js';
import { bundleRefs, pruneExtensionRefs } from './bundle-refs.js';
import { hasExternalRefs, maskDataRefs, scanRefs, unmaskDataRefs } from './data-refs.js';
import { resumedDocument, validateKeeping, type ChangeFromLast, type KeptCheck, type ResumedDocument } from './last-check.js';
import { MAX_DOCUMENT_DEPTH, MAX_DOCUMENT_NODES, measureDocument } from './measure-document.js';
import { type OpenApiDocument, type SpecVersion } from './openapi-document.js';
import { isJsonObject, textOf, type JsonObject, type JsonValue } from '../kernel/json.js';
import { parseTextAs } from './parse-text.js';
import { readSource, type SourceText } from './read-source.js';
import type { DocumentReparse, Reparsed } from './reparse-document.js';
import type { SaveValidation } from './save-validation.js';
import { validateDescription } from './validate-concurrently.js';

export type LoadOptions = {
  /** A file path, `-` for standard input, or an http(s) URL. */
  spec: string;
  /** Folder that file `$ref`s may not leave; defaults to the entry file's folder. */
  refRoot?: string;
  allowRemoteRefs?: boolean;
  /** Largest description accepted, in bytes. */
  maxInputBytes: number;
  /** Check the document against the OpenAPI JSON Schemas (warnings only). */
  validate?: boolean;
  readStdin?: (maxBytes: number) => Promise<string | undefined>;
  /** Told each file a `$ref` pulled in (its real path); the entry file is the caller's own `spec`. */
  onInputFile?: (file: string) => void;
  /** The validation a process that loads again and again keeps (a watch): its worker, its last documents' checks. */
  validation?: SaveValidation;
  /** The last document of a process that loads again and again (a watch), to parse only what a save changed. */
  reparse?: DocumentReparse;
  /**
   * For a run that keeps its check for the next (the regeneration cache): told the check of a JSON description read
   * from a file, checked from `lastCheck` (the last run's) where only a path item changed, and how the text differs
   * from the last one's (load/last-check.ts); `pathsUnreferenced`: the text shows no `$ref` that may point into
   * `paths` (load/data-refs.ts, scanRefs), so that no path item reads another.
   */
  keepCheck?: (validated: Validated) => void;
  lastCheck?: KeptCheck;
};

/** What a run that keeps its check is told of it (LoadOptions.keepCheck). */
export type Validated = { kept: Promise<KeptCheck | undefined>; change?: ChangeFromLast; pathsUnreferenced: boolean };

/** Reads the entry description's text (the first step of loadSpec, on its own for callers that hash it first). */
export function readSpecSource(options: LoadOptions, diagnostics: Diagnostics): Promise<SourceText | undefined> {
  return readSource({ spec: options.spec, maxBytes: options.maxInputBytes, readStdin: options.readStdin }, diagnostics);
}

/**
 * Stage 1: reads, parses, bundles and checks a description. Returns undefined when the input is unusable. `read`
 * is the entry's text when the caller has read it already (readSpecSource).
 */
export async function loadSpec(options: LoadOptions, diagnostics: Diagnostics, read?: SourceText): Promise<OpenApiDocument | undefined> {
  const maxBytes = options.maxInputBytes;
  const source = read ?? (await readSpecSource(options, diagnostics));
  if (!source) return undefined;
  const resumed = resumedText(options, source);
  const refs = resumed?.refs ?? scanRefs(source.text);
  const internal = refs.allInternal;
  const reparsed = resumed ? undefined : withoutExternalRefs(options.reparse?.parse(source.text), internal);
  const whole = resumed || reparsed ? undefined : parseWhole(source, diagnostics, options.reparse);
  const parsed = resumed?.root ?? reparsed?.root ?? whole?.root;
  if (parsed === undefined) return undefined;
  const detected = detectVersion(parsed, diagnostics);
  if (!detected) return undefined;

  let root = parsed;
  // A document parsed from the last one has none: the last one had none, nor has the item that changed.
  if (!internal && !reparsed && hasExternalRefs(root, detected.version)) {
    // Bundling copies from the document it is given; only a document no bundling touches is shared with the next save.
    options.reparse?.forget();
    root = pruneExtensionRefs(root, diagnostics);
    const base = source.kind === 'url' ? source.location : path.resolve(source.kind === 'stdin' ? 'stdin.yaml' : source.location);
    const refRoot = options.refRoot
      ? path.resolve(options.refRoot)
      : source.kind === 'url'
        ? new URL('.', source.location).href
        : path.dirname(base);
    // `$ref`s inside example values and other data are hidden from the bundler, which would try to read them.
    const masked = maskDataRefs(root, detected.version);
    const bundled = await bundleRefs(
      masked,
      {
        base,
        refRoot,
        allowRemoteRefs: options.allowRemoteRefs ?? false,
        maxBytes,
        ...(options.onInputFile ? { onFileRead: options.onInputFile } : {}),
      },
      diagnostics,
    );
    if (!bundled) return undefined;
    // Referenced files were parsed by the bundler: the same limits apply to what they brought in.
    if (measuredWithin(bundled, source.location, diagnostics) === undefined) return undefined;
    root = unmaskDataRefs(bundled, detected.version);
  }
  if (!('paths' in root) || root['paths'] === null) {
    const webhooksOnly = detected.version === '3.1' && isJsonObject(root['webhooks']);
    const report = webhooksOnly ? diagnostics.warn.bind(diagnostics) : diagnostics.error.bind(diagnostics);
    report(
      'OTM_NO_PATHS',
      webhooksOnly ? 'The description has only webhooks: the server will have no tools.' : 'The description has no `paths`.',
      {
        pointer: '#',
        hint: webhooksOnly ? 'Webhooks are calls the API makes to you; they do not become tools.' : 'Add operations under `paths`.',
      },
    );
    if (!webhooksOnly) return undefined;
  } else if (!isJsonObject(root['paths'])) {
    diagnostics.error('OTM_NOT_OPENAPI', '`paths` must be an object of path items.', { pointer: '#/paths' });
    return undefined;
  }
  if (options.validate !== false) {
    const text = root === parsed ? source : undefined;
    if (options.validation) options.validation.validate(root, text, diagnostics, reparsed);
    // Spans are told only in a text that starts with its root object (no byte order mark, no white space first).
    else if (options.keepCheck && text?.kind === 'file' && (resumed || (whole?.json && text.text.startsWith('{')))) {
      const from = resumed ?? { nodes: whole?.nodes, refs };
      const validated = validateKeeping(root, text, diagnostics, { ...from, ...(options.lastCheck ? { last: options.lastCheck } : {}) });
      options.keepCheck({ ...validated, pathsUnreferenced: refs.noneIntoPaths });
    } else validateDescription(root, text, diagnostics);
  }
  return {
    ...detected,
    root,
    source: { kind: source.kind, location: source.location },
    ...(root === parsed ? {} : { externalRefs: true as const }),
  };
}

/**
 * The text as the last run's with at most one path item changed, parsed only as far as it is read (last-check.ts), for
 * a run that keeps its check and reads the text from a file.
 */
function resumedText(options: LoadOptions, source: SourceText): ResumedDocument | undefined {
  if (!options.keepCheck || !options.lastCheck || options.reparse || source.kind !== 'file' || !source.text.startsWith('{'))
    return undefined;
  return resumedDocument(source.text, options.lastCheck);
}

/**
 * A document parsed from the last one, unless the item that changed refers to another document (the last one had no
 * such reference, or it would not have been kept). Where the text shows every reference internal, nothing to check.
 */
function withoutExternalRefs(reparsed: Reparsed | undefined, internal: boolean): Reparsed | undefined {
  if (!reparsed || internal || reparsed.key === undefined) return reparsed;
  const detected = detectVersion(reparsed.root, new Diagnostics());
  const paths = reparsed.root['paths'];
  if (!detected || !isJsonObject(paths)) return undefined;
  const item: JsonObject = { [reparsed.key]: paths[reparsed.key] as JsonValue };
  return hasExternalRefs({ paths: item }, detected.version) ? undefined : reparsed;
}

/**
 * Parses the whole text; a document within the limits whose root is an object, and whether JSON.parse read it, or
 * undefined with an error.
 */
function parseWhole(
  source: SourceText,
  diagnostics: Diagnostics,
  reparse: DocumentReparse | undefined,
): { root: JsonObject; json: boolean; nodes: number } | undefined {
  const { value: parsed, json, spans } = parseTextAs(source.text, source.location, diagnostics, { yamlSpans: reparse !== undefined });
  if (parsed === undefined) return undefined;
  const nodes = measuredWithin(parsed, source.location, diagnostics);
  if (nodes === undefined) return undefined;
  if (!isJsonObject(parsed)) {
    diagnostics.error('OTM_NOT_OPENAPI', `${source.location} is not an OpenAPI description: its root is not an object.`, {
      pointer: '#',
      hint: 'The root must be an object with `openapi: 3.x.y` or `swagger: "2.0"`.',
    });
    return undefined;
  }
  reparse?.remember(source.text, parsed, nodes, { json, spans });
  return { root: parsed, json, nodes };
}

function detectVersion(root: JsonObject, diagnostics: Diagnostics): { version: SpecVersion; versionString: string } | undefined {
  const swagger = root['swagger'];
  const openapi = root['openapi'];
  if (swagger !== undefined) {
    if (swagger === '2.0' || swagger === 2) return { version: '2.0', versionString: '2.0' };
    diagnostics.error('OTM_UNSUPPORTED_VERSION', `Swagger version ${JSON.stringify(swagger)} is not supported.`, {
      pointer: '#/swagger',
      hint: 'Only Swagger 2.0 is supported among the Swagger versions.',
    });
    return undefined;
  }
  if (openapi !== undefined) {
    const text = textOf(openapi);
    if (/^3\.0(\.\d+)?$/.test(text)) return { version: '3.0', versionString: text };
    if (/^3\.1(\.\d+)?$/.test(text)) return { version: '3.1', versionString: text };
    diagnostics.error('OTM_UNSUPPORTED_VERSION', `OpenAPI version ${JSON.stringify(openapi)} is not supported.`, {
      pointer: '#/openapi',
      hint: 'Use OpenAPI 3.0.x or 3.1.x (or Swagger 2.0).',
    });
    return undefined;
  }
  diagnostics.error('OTM_NOT_OPENAPI', 'The document has neither `openapi` nor `swagger` at its root.', {
    pointer: '#',
    hint: 'Is this an OpenAPI description? The root needs `openapi: 3.1.0` (or 3.0.x, or `swagger: "2.0"`).',
  });
  return undefined;
}

/**
 * Refuses documents that every later stage would choke on: absurd nesting, alias bombs, self-containing aliases. The
 * values an accepted document holds, or undefined with an error.
 */
function measuredWithin(parsed: unknown, location: string, diagnostics: Diagnostics): number | undefined {
  const shape = measureDocument(parsed);
  if (shape.ok) return shape.nodes;
  const message = {
    'too-deep': `${location} nests deeper than ${MAX_DOCUMENT_DEPTH} levels.`,
    'too-many-nodes': `${location} expands to more than ${MAX_DOCUMENT_NODES.toLocaleString('en-US')} values once its YAML aliases are resolved.`,
    cycle: `A YAML alias in ${location} refers to a node that contains it, so the document would be infinite.`,
  }[shape.problem];
  const hint = {
    'too-deep': 'Real descriptions nest far less; move deep structures into components joined by $ref.',
    'too-many-nodes': 'This is the shape of a "billion laughs" document; use $ref instead of YAML anchors and aliases.',
    cycle: 'Use $ref for recursive structures; YAML aliases cannot express them.',
  }[shape.problem];
  diagnostics.error('OTM_INPUT_TOO_COMPLEX', message, { pointer: shape.pointer, hint });
  return undefined;
}
