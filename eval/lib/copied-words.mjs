// A request is written as a person types it: it must not copy the operation's own words, which would give the answer
// away. Shared by the first-call truth check and the multi-step task check.

/** The request must not copy the operationId, the summary or a compound path segment (`chat.postMessage`). */
export function copiedWords(request, operation) {
  const text = request.toLowerCase();
  const found = [];
  if (operation.operationId && operation.operationId.length > 3 && text.includes(operation.operationId.toLowerCase())) {
    found.push(`request copies the operationId ${operation.operationId}`);
  }
  const summary = operation.summary?.trim().replace(/\.$/, '').toLowerCase();
  if (summary && summary.split(/\s+/).length >= 2 && text.includes(summary))
    found.push(`request copies the summary "${operation.summary}"`);
  for (const segment of operation.path.split('/')) {
    if (segment.includes('{') || !/[._-]|[a-z][A-Z]/.test(segment)) continue;
    if (text.includes(segment.toLowerCase())) found.push(`request copies the path segment ${segment}`);
  }
  return found;
}
