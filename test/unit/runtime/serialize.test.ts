import { describe, expect, it } from 'vitest';
import { serializeCookie, serializeHeader, serializePath, serializeQuery } from '../../../templates/runtime/requests/serialize.js';

// Expected values follow the style examples of the OpenAPI Specification (3.1.1, "Style Examples"), with the
// spec's values: a primitive 5 (or "blue"), an array [3, 4, 5] and an object {role: "admin", firstName: "Alex"}.
const array = [3, 4, 5];
const object = { role: 'admin', firstName: 'Alex' };

describe('path parameters', () => {
  it.each([
    ['simple', false, 5, '5'],
    ['simple', false, array, '3,4,5'],
    ['simple', false, object, 'role,admin,firstName,Alex'],
    ['simple', true, array, '3,4,5'],
    ['simple', true, object, 'role=admin,firstName=Alex'],
    ['label', false, 5, '.5'],
    ['label', false, array, '.3,4,5'],
    ['label', false, object, '.role,admin,firstName,Alex'],
    ['label', true, array, '.3.4.5'],
    ['label', true, object, '.role=admin.firstName=Alex'],
    ['matrix', false, 5, ';id=5'],
    ['matrix', false, array, ';id=3,4,5'],
    ['matrix', false, object, ';id=role,admin,firstName,Alex'],
    ['matrix', true, array, ';id=3;id=4;id=5'],
    ['matrix', true, object, ';role=admin;firstName=Alex'],
  ] as const)('%s, explode %s: %j → %s', (style, explode, value, expected) => {
    expect(serializePath('id', value, style, explode)).toBe(expected);
  });

  it('percent-encodes reserved characters so a value stays one segment', () => {
    expect(serializePath('id', 'a/b?c#d', 'simple', false)).toBe('a%2Fb%3Fc%23d');
    expect(serializePath('id', '50%', 'simple', false)).toBe('50%25');
    expect(serializePath('id', 'x y', 'simple', false)).toBe('x%20y');
    expect(serializePath('id', 'é', 'simple', false)).toBe('%C3%A9');
    expect(serializePath('id', ['a,b', 'c'], 'simple', false)).toBe('a%2Cb,c');
    expect(serializePath('id', 'a;b=c', 'matrix', false)).toBe(';id=a%3Bb%3Dc');
  });
});

describe('query parameters', () => {
  it.each([
    ['form', true, 'blue', ['color=blue']],
    ['form', true, array, ['id=3', 'id=4', 'id=5']],
    ['form', true, object, ['role=admin', 'firstName=Alex']],
    ['form', false, array, ['id=3,4,5']],
    ['form', false, object, ['id=role,admin,firstName,Alex']],
    ['spaceDelimited', false, array, ['id=3%204%205']],
    ['spaceDelimited', false, object, ['id=role%20admin%20firstName%20Alex']],
    ['spaceDelimited', true, array, ['id=3', 'id=4', 'id=5']],
    ['pipeDelimited', false, array, ['id=3%7C4%7C5']],
    ['pipeDelimited', false, object, ['id=role%7Cadmin%7CfirstName%7CAlex']],
    ['pipeDelimited', true, array, ['id=3', 'id=4', 'id=5']],
    ['deepObject', true, object, ['id%5Brole%5D=admin', 'id%5BfirstName%5D=Alex']],
  ] as const)('%s, explode %s: %j', (style, explode, value, expected) => {
    const name = value === 'blue' ? 'color' : 'id';
    expect(serializeQuery(name, value, style, explode)).toEqual(expected);
  });

  it('omits empty arrays and encodes reserved characters unless allowReserved', () => {
    expect(serializeQuery('id', [], 'form', true)).toEqual([]);
    expect(serializeQuery('q', 'a/b?c&d=e f', 'form', true)).toEqual(['q=a%2Fb%3Fc%26d%3De%20f']);
    // allowReserved keeps RFC 3986 reserved characters, but never what would end the query or the pair early.
    expect(serializeQuery('q', 'a/b?c:d@e,f', 'form', true, true)).toEqual(['q=a/b?c:d@e,f']);
    expect(serializeQuery('q', 'a&b=c#d', 'form', true, true)).toEqual(['q=a%26b%3Dc%23d']);
    expect(serializeQuery('q', 'x y%', 'form', true, true)).toEqual(['q=x%20y%25']);
  });

  it('nests deepObject values and serialises nested arrays with []', () => {
    expect(serializeQuery('filter', { name: { eq: 'x' }, ids: [1, 2] }, 'deepObject', true)).toEqual([
      'filter%5Bname%5D%5Beq%5D=x',
      'filter%5Bids%5D%5B%5D=1',
      'filter%5Bids%5D%5B%5D=2',
    ]);
  });

  it('writes booleans, numbers and null the way servers parse them', () => {
    expect(serializeQuery('flag', true, 'form', true)).toEqual(['flag=true']);
    expect(serializeQuery('n', 1.5, 'form', true)).toEqual(['n=1.5']);
    expect(serializeQuery('n', null, 'form', true)).toEqual(['n=']);
  });
});

describe('header parameters', () => {
  it.each([
    [false, 5, '5'],
    [false, array, '3,4,5'],
    [false, object, 'role,admin,firstName,Alex'],
    [true, object, 'role=admin,firstName=Alex'],
  ] as const)('simple, explode %s: %j → %s', (explode, value, expected) => {
    expect(serializeHeader(value, explode)).toBe(expected);
  });
});

describe('cookie parameters', () => {
  it('form style, exploded or not, with values percent-encoded', () => {
    expect(serializeCookie('id', 5, true)).toEqual(['id=5']);
    expect(serializeCookie('id', 'a b;c', true)).toEqual(['id=a%20b%3Bc']);
    expect(serializeCookie('id', array, false)).toEqual(['id=3,4,5']);
    expect(serializeCookie('id', array, true)).toEqual(['id=3', 'id=4', 'id=5']);
    expect(serializeCookie('id', object, true)).toEqual(['role=admin', 'firstName=Alex']);
  });
});
