/**
 * The catalog of diagnostic codes. Every code a stage can emit is listed here with what it means and how to
 * fix it; a test fails when a code is used without an entry, and the README's table is generated from it.
 */
export const DIAGNOSTIC_CATALOG = {
  OTM_INPUT_UNREADABLE: {
    title: 'The description could not be read',
    fix: 'Check the path or URL; for stdin pass `-` and pipe the document in.',
  },
  OTM_INPUT_TOO_LARGE: {
    title: 'The description is larger than the size limit',
    fix: 'Raise the limit with --max-input-mb, or split the description into files joined by $ref.',
  },
  OTM_INPUT_TOO_COMPLEX: {
    title: 'The description nests too deeply, or its YAML aliases expand too far or refer to themselves',
    fix: 'Use $ref for deep or shared structures.',
  },
  OTM_OUT_OF_MEMORY: {
    title: 'Generating from the description needs more memory than the heap limit',
    fix: "Raise Node's heap limit: NODE_OPTIONS=--max-old-space-size=8192 npx openapi-to-mcp …",
  },
  OTM_PARSE_ERROR: {
    title: 'The description is not valid JSON or YAML',
    fix: 'Fix the syntax at the line and column shown; a YAML linter shows the same place.',
  },
  OTM_NOT_OPENAPI: {
    title: 'The document is not an OpenAPI or Swagger description',
    fix: 'The root must be an object with `openapi: 3.x.y` or `swagger: "2.0"`.',
  },
  OTM_UNSUPPORTED_VERSION: {
    title: 'The OpenAPI version is not supported',
    fix: 'Use Swagger 2.0, OpenAPI 3.0.x or 3.1.x; convert other versions first.',
  },
  OTM_NO_PATHS: {
    title: 'The description has no operations',
    fix: 'Add operations under `paths`; a webhooks-only description yields a server with no tools.',
  },
  OTM_REF_UNRESOLVED: {
    title: 'A $ref points at nothing',
    fix: 'Correct the reference or add the missing component.',
  },
  OTM_REF_REMOTE_BLOCKED: {
    title: 'A $ref points at a network address',
    fix: 'Download the referenced document next to the description, or pass --allow-remote-refs if you trust it.',
  },
  OTM_REF_OUTSIDE_ROOT: {
    title: "A $ref leaves the description's folder",
    fix: 'Move the referenced file under the folder, or widen the allowed folder with --ref-root DIR.',
  },
  OTM_REF_LOOP: {
    title: 'A $ref chain loops back on itself without reaching a value',
    fix: 'Break the loop so that the chain ends at an actual object.',
  },
  OTM_VALIDATION: {
    title: 'The description does not conform to its OpenAPI schema',
    fix: 'Generation continues where the description is still usable; fix the document to silence this warning.',
  },
  OTM_INVALID_OBJECT: {
    title: 'An object of the description has the wrong shape and was skipped',
    fix: 'Correct the object at the pointer; everything else was generated.',
  },
  OTM_DUPLICATE_OPERATION_ID: {
    title: 'Two operations share an operationId',
    fix: 'Give each operation a unique operationId; the generator made the later one unique.',
  },
  OTM_PARAMETER_LOCATION: {
    title: 'A parameter is in a location the generator cannot send',
    fix: 'Use `in: path`, `query`, `header` or `cookie` (or `body`/`formData` in Swagger 2.0).',
  },
  OTM_PATH_PARAMETER_MISSING: {
    title: 'A path template variable has no parameter',
    fix: 'Declare the parameter with `in: path` and `required: true`; the generator added a string parameter.',
  },
  OTM_PARAMETER_TYPE_BELIEVED: {
    title: "A parameter's type contradicts its own examples or the other operations' parameter of that name, which were believed",
    fix: 'Correct the type in the description, or pin the type you mean with operations.<operationId>.parameters.<name>.type in the configuration.',
  },
  OTM_PARAMETER_LIST_BELIEVED: {
    title: 'A query parameter named `name[]` is typed as one value and was taken as a list of them',
    fix: 'Nothing to do when the API repeats the key per value; to send one value only, pin the type with operations.<operationId>.parameters.<name>.type in the configuration.',
  },
  OTM_CREDENTIAL_PARAMETER: {
    title: 'A parameter carries a credential and is filled from the environment instead',
    fix: 'Nothing to do: credentials never appear in tool inputs. Set the environment variable named in the message.',
  },
  OTM_SCHEMA_LIMIT: {
    title: 'A schema is too deep or too large and was cut',
    fix: 'The cut part is accepted as a free-form value and checked by the API itself.',
  },
  OTM_BODY_IGNORED: {
    title: 'A GET or HEAD operation describes a request body, which cannot be sent',
    fix: 'Move the body fields to query parameters, or make the operation a POST; the body was left out.',
  },
  OTM_SECURITY_SCHEME: {
    title: 'A security scheme cannot be applied automatically',
    fix: 'Add the credential in src/custom/hooks.ts (beforeRequest) or use a supported scheme.',
  },
  OTM_NAME_ADJUSTED: {
    title: 'A name from the description was changed to be valid',
    fix: 'Nothing to do; use x-mcp.name on the operation to choose the name yourself.',
  },
  OTM_BUDGET_EXCEEDED: {
    title: 'The tool surface is over its token budget',
    fix: 'Exclude operations (--exclude-tag, x-mcp hidden) or raise the budget; no operation was dropped.',
  },
  OTM_HEADER_REFUSED: {
    title: 'An x-mcp-header marking was refused',
    fix: 'Remove the marking: secrets and personal data must not travel in headers that proxies log.',
  },
  OTM_HEADER_INVALID: {
    title: 'An x-mcp-header marking breaks the SEP-2243 rules',
    fix: 'Use an RFC 9110 token, unique within the tool, on a string, integer or boolean path, query or header parameter; or drop it with headers.remove.',
  },
  OTM_CONFIG_INVALID: {
    title: 'The configuration is invalid',
    fix: 'Correct the option named in the message; `openapi-to-mcp --help` lists every option.',
  },
  OTM_ICON_INVALID: {
    title: 'A configured icon is not a usable image',
    fix: 'Give a PNG, JPEG, WebP or script-free SVG file (or data: URI) whose content is the type it says; the server is generated without that icon.',
  },
  OTM_ICON_TOO_LARGE: {
    title: 'An icon is larger than 32 KiB, or `tools/list` would repeat it past 256 KiB in all',
    fix: 'Give a smaller image (64×64 pixels, or an SVG), or icons to a few tools with `icons.byTool`: every tool that shows an icon repeats it in tools/list.',
  },
  OTM_ICON_REMOTE: {
    title: 'An icon is given as a URL, which generation does not fetch',
    fix: 'Download the image and give its file path or a data: URI in `icons` of the configuration: the server embeds icons and never fetches them.',
  },
  OTM_ICON_UNKNOWN_TOOL: {
    title: '`icons.byTool` names a tool the plan does not have',
    fix: 'Use a tool name that `openapi-to-mcp plan` lists (the message suggests the closest).',
  },
  OTM_EXTENSION_INVALID: {
    title: 'An x-mcp extension has the wrong shape',
    fix: 'See the README section on the x-mcp extension for the accepted fields.',
  },
  OTM_OUTPUT_NOT_GENERATED: {
    title: 'The output folder holds files that this generator did not write',
    fix: 'Choose an empty folder or a folder generated before; nothing was changed.',
  },
  OTM_OUTPUT_EDITED: {
    title: 'A generated file was edited by hand',
    fix: 'Move the change into src/custom/, or pass --force to overwrite the file.',
  },
  OTM_CUSTOM_IMPORT_MOVED: {
    title: 'A file of yours imports a generated module that moved',
    fix: 'Change the import to the path the message names; files under src/custom/ are never rewritten.',
  },
  OTM_OUTPUT_STALE: {
    title: 'The checked-in server differs from what the description generates',
    fix: 'Regenerate without --check and commit the result.',
  },
  OTM_WRITE_FAILED: {
    title: 'The output could not be written',
    fix: 'Give --out a folder, not a file or a path through one, and check permissions and free space; the previous project was left as it was.',
  },
  OTM_NO_OPERATIONS_SELECTED: {
    title: 'The include/exclude rules leave no operations',
    fix: 'Loosen the rules; the server would have no tools.',
  },
} as const satisfies Record<string, { title: string; fix: string }>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CATALOG;
