import type { TypeMember, TypeNode } from '../schema-to-type.js';
import { isUnquotedKey, requote } from './literals.js';
import { doc, PRETTIER_OPTIONS } from './prettier-parts.js';

type Doc = Parameters<typeof doc.printer.printDocToString>[0];

const { align, group, ifBreak, indent, indentIfBreak, join, line, lineSuffixBoundary, softline } = doc.builders;

/**
 * `export type Name = { … };` laid out as prettier lays it out. Types are small but their layout rules (unions
 * broken one member per line, type arguments, hugging `X | null`) are many, so this builds prettier's own document
 * for them and lets prettier's document printer decide the line breaks.
 */
export function printTypeAlias(name: string, members: TypeMember[]): string {
  const body: Doc =
    members.length === 0
      ? reference('Record', [keyword('string'), keyword('never')])
      : group(
          [
            '{',
            indent([
              line,
              join(
                [';', line],
                members.map((member) => group(memberDoc(member))),
              ),
            ]),
            ifBreak(';'),
            line,
            '}',
          ],
          {
            shouldBreak: true,
          },
        );
  const id = Symbol('type-alias');
  const statement: Doc = [
    'export ',
    group([group(['type ', name]), ' =', group(indent(line), { id }), lineSuffixBoundary, indentIfBreak(body, { groupId: id })]),
    ';',
  ];
  return doc.printer.printDocToString(statement, PRETTIER_OPTIONS).formatted;
}

const keyword = (text: string): TypeNode => ({ kind: 'keyword', text });

function reference(name: string, args: TypeNode[]): Doc {
  return typeDoc({ kind: 'reference', name, args, text: '' }, 'member');
}

function memberDoc(member: TypeMember): Doc {
  const key = isUnquotedKey(member.name) ? member.name : requote(JSON.stringify(member.name));
  return [key, member.optional ? '?' : '', ': ', typeDoc(member.type, 'member')];
}

/** Where a union sits decides whether it indents when it breaks (in a member's annotation, not in `<…>`). */
type Place = 'member' | 'argument' | 'element';

function typeDoc(node: TypeNode, place: Place): Doc {
  switch (node.kind) {
    case 'keyword':
      return node.text;
    case 'literal':
      return literalText(node.text);
    case 'array':
      return [typeDoc(node.element, 'element'), '[]'];
    case 'reference':
      return [node.name, typeArguments(node.args)];
    case 'union':
      return unionDoc(node.types, place);
  }
}

function literalText(text: string): string {
  if (text.startsWith('"')) return requote(text);
  return text.includes('e+') ? text.replace('e+', 'e') : text;
}

function typeArguments(args: TypeNode[]): Doc {
  const only = args.length === 1 ? (args[0] as TypeNode) : undefined;
  if (only && hugs(only)) return ['<', typeDoc(only, 'argument'), '>'];
  // No trailing comma in type arguments (TypeScript rejects one in some positions).
  return group([
    '<',
    indent([
      softline,
      join(
        [',', line],
        args.map((arg) => typeDoc(arg, 'argument')),
      ),
    ]),
    softline,
    '>',
  ]);
}

/** Simple types, and unions of one object-like type with `null`, print inline where prettier "hugs" them. */
function hugs(node: TypeNode): boolean {
  if (node.kind === 'keyword') return node.text !== 'null';
  return node.kind === 'union' && hugsUnion(node.types);
}

function isObjectLike(node: TypeNode): boolean {
  return node.kind === 'reference';
}

function isNullType(node: TypeNode): boolean {
  return (node.kind === 'keyword' || node.kind === 'literal') && node.text === 'null';
}

function hugsUnion(types: TypeNode[]): boolean {
  const objectType = types.find(isObjectLike);
  return objectType !== undefined && types.every((type) => type === objectType || isNullType(type));
}

/**
 * A union stays on one line when it fits; in a member's annotation it next tries the line below the key, then
 * goes one `| member` per line (in `<…>` it goes straight to one per line).
 */
function unionDoc(types: TypeNode[], place: Place): Doc {
  if (hugsUnion(types))
    return join(
      ' | ',
      types.map((type) => typeDoc(type, 'element')),
    );
  const printed = types.map((type) => align(2, typeDoc(type, 'element')));
  const parts = group([ifBreak('| '), join([line, '| '], printed)]);
  return place === 'member' ? group(indent([softline, parts])) : group([parts]);
}
