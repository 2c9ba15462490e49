import { describe, expect, it } from 'vitest';
import { WrittenSearch } from '../../../src/search/written-search.js';

type Document = { id: string; title: string; body: string; tags: string };

function search(documents: Document[]): WrittenSearch<Document> {
  const index = new WrittenSearch<Document>({ fields: ['title', 'body', 'tags'] });
  for (const document of documents) index.add(document);
  return index;
}

describe('an index written as text', () => {
  it('is what JSON.stringify writes of toJSON, terms in fields out of order and repeated included', () => {
    const documents: Document[] = [
      // `cancel` is first in the tags (field 2), then in a title (field 0): its fields' map is out of key order.
      { id: 'a', title: 'List the orders', body: 'Lists orders, orders and more "orders".', tags: 'orders cancel' },
      { id: 'b', title: 'Cancel an order', body: '', tags: 'orders' },
      { id: 'c', title: 'Ünïcode ☃ title', body: 'line\nbreak \\ back', tags: '' },
      ...Array.from({ length: 30 }, (_, index) => ({ id: `d${index}`, title: `Order ${index}`, body: 'orders', tags: 'bulk' })),
    ];
    const index = search(documents);
    expect(index.toJSONText()).toBe(JSON.stringify(index.toJSON()));
  });

  it('is the same after a document is removed and added again', () => {
    const documents: Document[] = [
      { id: 'a', title: 'one two', body: 'three', tags: 'x' },
      { id: 'b', title: 'two three', body: 'one', tags: 'y' },
    ];
    const index = search(documents);
    index.remove(documents[0] as Document);
    index.add({ id: 'a', title: 'two four', body: 'one', tags: 'x' });
    expect(index.toJSONText()).toBe(JSON.stringify(index.toJSON()));
  });

  it('is an empty index’s', () => {
    const index = search([]);
    expect(index.toJSONText()).toBe(JSON.stringify(index.toJSON()));
  });
});
