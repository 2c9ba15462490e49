import { cleanText } from '../text/sanitize-text.js';

/** The API's name as descriptions use it: the title before any commentary (`Swagger Petstore - OpenAPI 3.0`). */
export function displayName(title: string): string {
  const head = title.split(/\s+[-–—|:]\s+|\s*\(/)[0] ?? title;
  return cleanText(head, 60).text || cleanText(title, 60).text || 'API';
}
