// Smaller descriptions cut from a large one, for the scaling curve: the first N operations in a stable spread over
// the paths, with only the components they reach (so every stage sees a description of that size, not 13 MB).

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of the description as [path, method], in document order. */
export function operationsOf(document) {
  const out = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) if (item && typeof item === 'object' && item[method]) out.push([path, method]);
  }
  return out;
}

/** `count` operations spread evenly over the description (deterministic), with the components they use. */
export function subsetDocument(document, count) {
  const all = operationsOf(document);
  const step = all.length / count;
  const chosen = new Set();
  for (let index = 0; index < count && index < all.length; index++) chosen.add(all[Math.floor(index * step)].join(' '));
  const paths = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const kept = {};
    for (const [key, value] of Object.entries(item)) {
      if (METHODS.includes(key)) {
        if (chosen.has(`${path} ${key}`)) kept[key] = value;
      } else kept[key] = value;
    }
    if (METHODS.some((method) => method in kept)) paths[path] = kept;
  }
  const out = { ...document, paths };
  delete out.webhooks;
  delete out['x-webhooks'];
  if (document.components) out.components = reachableComponents(document, { paths, security: document.security });
  return out;
}

/** The components (by JSON pointer) that `root` reaches through `$ref`s, transitively; security schemes are kept. */
function reachableComponents(document, root) {
  const kept = {};
  const seen = new Set();
  const queue = [root];
  while (queue.length > 0) {
    const node = queue.pop();
    if (Array.isArray(node)) queue.push(...node);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/')) {
          if (seen.has(value)) continue;
          seen.add(value);
          const [, , section, name] = value.split('/');
          const decoded = name.replace(/~1/g, '/').replace(/~0/g, '~');
          const target = document.components?.[section]?.[decoded];
          if (target !== undefined) {
            (kept[section] ??= {})[decoded] = target;
            queue.push(target);
          }
        } else queue.push(value);
      }
    }
  }
  if (document.components?.securitySchemes) kept.securitySchemes = document.components.securitySchemes;
  return kept;
}
