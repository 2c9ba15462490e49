import type { Diagnostics } from '../diagnostics/diagnostic.js';
import { childPointer } from '../diagnostics/json-pointer.js';
import { isJsonObject, type JsonValue } from '../kernel/json.js';
import type { OperationExtension } from './api-model.js';

const ANNOTATION_KEYS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
const STRING_KEYS = ['tool', 'action', 'group', 'description'] as const;

/**
 * Reads an operation's `x-mcp` extension: `false` hides it; an object may set `hidden`, `tool` (tool name), `action`
 * (action name), `group` (grouping key), `description` and `annotations`. Unknown or mistyped fields are reported.
 */
export function readOperationExtension(value: JsonValue | undefined, pointer: string, diagnostics: Diagnostics): OperationExtension {
  if (value === undefined) return {};
  const at = childPointer(pointer, 'x-mcp');
  if (value === false) return { hidden: true };
  if (value === true) return {};
  if (!isJsonObject(value)) {
    diagnostics.warn('OTM_EXTENSION_INVALID', 'x-mcp must be false or an object; it was ignored.', { pointer: at });
    return {};
  }
  const out: OperationExtension = {};
  for (const [key, field] of Object.entries(value)) {
    if (key === 'hidden' && typeof field === 'boolean') out.hidden = field;
    else if ((STRING_KEYS as readonly string[]).includes(key) && typeof field === 'string' && field.trim() !== '') {
      out[key as (typeof STRING_KEYS)[number]] = field.trim();
    } else if (key === 'annotations' && isJsonObject(field)) {
      const annotations: NonNullable<OperationExtension['annotations']> = {};
      for (const [hint, flag] of Object.entries(field)) {
        if ((ANNOTATION_KEYS as readonly string[]).includes(hint) && typeof flag === 'boolean')
          annotations[hint as (typeof ANNOTATION_KEYS)[number]] = flag;
        else
          diagnostics.warn('OTM_EXTENSION_INVALID', `x-mcp.annotations.${hint} is not a known boolean hint; it was ignored.`, {
            pointer: childPointer(at, 'annotations', hint),
          });
      }
      out.annotations = annotations;
    } else {
      diagnostics.warn('OTM_EXTENSION_INVALID', `x-mcp.${key} is not a known field or has the wrong type; it was ignored.`, {
        pointer: childPointer(at, key),
        hint: 'Known fields: hidden, tool, action, group, description, annotations.',
      });
    }
  }
  return out;
}
