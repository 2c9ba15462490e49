import { baseMediaType, isJsonMediaType } from '../kernel/media-types.js';
import type { BodyKind } from './api-model.js';

/** How a body of this media type is built from tool arguments. */
export function bodyKindOf(mediaType: string): BodyKind {
  const base = baseMediaType(mediaType);
  if (isJsonMediaType(base)) return 'json';
  if (base === 'application/x-www-form-urlencoded') return 'form';
  if (base.startsWith('multipart/')) return 'multipart';
  if (
    base.startsWith('text/') ||
    base === 'application/xml' ||
    base.endsWith('+xml') ||
    base === 'application/sdp' ||
    base === 'application/graphql'
  )
    return 'text';
  return 'binary';
}

/** Preference when an operation offers several request media types: the ones a model can fill best first. */
export function bodyKindRank(kind: BodyKind): number {
  return { json: 0, form: 1, multipart: 2, text: 3, binary: 4 }[kind];
}
