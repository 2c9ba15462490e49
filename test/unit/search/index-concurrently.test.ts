import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, type SearchDocument } from '../../../src/search/search-index.js';
import { REPO_ROOT } from '../../helpers/paths.js';

/** Documents alike enough to share terms and different enough to rank: one operation at several scopes, many words. */
function documents(count: number): SearchDocument[] {
  const things = ['message', 'event', 'calendar', 'contact', 'drive item', 'team channel', 'user photo', 'mail folder'];
  const scopes = ['me', 'users/{user-id}', 'groups/{group-id}'];
  return Array.from({ length: count }, (_, index) => {
    const thing = things[index % things.length] as string;
    const scope = scopes[index % scopes.length] as string;
    return {
      id: `tool_${index % 97}.action_${index}`,
      summary: `${index % 2 ? 'List' : 'Update'} the ${thing} of ${scope}`,
      name: `${thing.replace(' ', '_')}_${index} ${scope.split('/')[0] as string}`,
      resource: thing,
      params: `${thing.replace(' ', '_')}_id,$select,$top`,
      fields: `id display_name created_date_time status_${index % 13}`,
      verb: index % 2 ? 'get list' : 'update',
      lead: `Retrieves the ${thing}s.`,
      description: `The ${thing} is returned with its properties; use $select to choose them (${index}).`,
    };
  });
}

describe('the search index built in a worker thread', () => {
  it('is the index built in place, from documents posted in batches as they come', async () => {
    // The worker runs from dist/ (built by npm run build), as it does for users.
    const { ConcurrentIndex } = (await import(
      pathToFileURL(path.join(REPO_ROOT, 'dist/search/build-index-concurrently.js')).href
    )) as typeof import('../../../src/search/build-index-concurrently.js');
    const all = documents(1_234);
    const families = [['tool_1.action_1', 'tool_4.action_4']];
    const concurrent = new ConcurrentIndex(all.length, 0);
    for (const document of all) concurrent.add(document);
    const built = await concurrent.finish(families);
    expect(concurrent.builtIn).toBe('worker');
    expect(built).toEqual(buildSearchIndex(all, families));
  });

  it('is built in place below the threshold', async () => {
    const { ConcurrentIndex } = await import('../../../src/search/build-index-concurrently.js');
    const all = documents(20);
    const index = new ConcurrentIndex(all.length);
    for (const document of all) index.add(document);
    expect(await index.finish([])).toEqual(buildSearchIndex(all, []));
    expect(index.builtIn).toBe('this thread');
  });
});
