import { parentPort } from 'node:worker_threads';
import { SearchIndexBuild, type SearchDocument } from './search-index.js';

/** What the main thread posts: documents in the catalog's order, then the scope families, which end the index. */
export type IndexRequest = { documents: SearchDocument[] } | { families: string[][] };

/**
 * Worker thread: builds the search index from documents as the main thread makes them (the catalog's schemas,
 * which the documents' field words come from, cost as much again), and answers with the serialised index.
 */
const build = new SearchIndexBuild();
parentPort?.on('message', (request: IndexRequest) => {
  if ('documents' in request) {
    for (const document of request.documents) build.add(document);
    return;
  }
  parentPort?.postMessage(build.finish(request.families));
  parentPort?.close();
});
