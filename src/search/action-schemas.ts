import type { JsonObject } from '../kernel/json.js';
import type { SchemaModel } from '../model/api-model.js';
import { ArgumentPhrases } from '../plan/arguments/argument-phrases.js';
import type { ActionDraft } from '../plan/drafts.js';
import { actionInputSchema } from './action-schema.js';

/**
 * The catalog's input schemas, one per distinct action. An action's schema (action-schema.ts) is a pure function of
 * its arguments — each one's key, schema, requirement, description, where it is sent and a whole body's fields — of
 * whether it offers the concise view and whether it may run long, and of the plan's `defs`: actions alike in all of
 * that get one schema, made once. Microsoft Graph's 11,422 actions have 6,616 distinct schemas (an operation's
 * copies under several parents and scopes often take the same arguments). Shared, so never changed.
 */
export class ActionSchemas {
  /** Small numbers for the argument schemas (one object per distinct schema of a plan) and texts a key names. */
  private readonly ids = new Map<unknown, number>();
  private readonly schemas = new Map<string, JsonObject>();
  /** Shared by every action: they describe the same arguments again and again. */
  private readonly phrases = new ArgumentPhrases();

  constructor(private readonly defs: Record<string, SchemaModel>) {}

  of(draft: ActionDraft, concise: boolean): JsonObject {
    const key = this.keyOf(draft, concise);
    let schema = this.schemas.get(key);
    if (schema === undefined) {
      schema = actionInputSchema(draft, this.defs, concise, this.phrases);
      this.schemas.set(key, schema);
    }
    return schema;
  }

  /**
   * Everything the schema is made of, as numbers: each two 15-bit UTF-16 code units (never a surrogate) of one string
   * made at once from a buffer the keys share (a key joined from its parts was thousands of small strings to make and
   * flatten, and a list of codes regrew for every key).
   */
  private keyOf(draft: ActionDraft, concise: boolean): string {
    this.length = 0;
    this.code(concise ? 1 : 0);
    this.code(draft.operation.longRunning ? 1 : 0);
    for (const argument of draft.arguments) {
      const { route } = argument;
      this.push(argument.key);
      this.push(argument.schema);
      this.code(argument.required ? 1 : 0);
      this.push(argument.description);
      this.push(route.in);
      this.push(route.in === 'body-whole' ? undefined : route.name);
      this.push(argument.fields ? JSON.stringify(argument.fields) : undefined);
    }
    return Buffer.from(this.codes.buffer, 0, this.length * 2).toString('utf16le');
  }

  private codes = new Uint16Array(256);
  private length = 0;

  private push(value: unknown): void {
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = this.ids.size));
    this.code((id >>> 15) & 0x7fff);
    this.code(id & 0x7fff);
  }

  private code(unit: number): void {
    if (this.length === this.codes.length) {
      const grown = new Uint16Array(this.codes.length * 2);
      grown.set(this.codes);
      this.codes = grown;
    }
    this.codes[this.length++] = unit;
  }
}
