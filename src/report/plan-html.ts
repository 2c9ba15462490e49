import { createHash } from 'node:crypto';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { readTemplate } from '../emit/templates.js';
import { htmlText } from '../emit/text-safety.js';
import type { ToolModel, ToolPlan } from '../plan/tool-plan.js';
import type { SurfaceChoice } from '../search/search-plan.js';

export type PlanHtmlOptions = {
  generator: string;
  /** The surface served; the search surface gets its own section before the static plan's tools. */
  surface?: SurfaceChoice;
};

const number = (value: number) => value.toLocaleString('en-US');
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * The plan as one self-contained page: what a reviewer would rather see than read — the tools with their actions,
 * each tool's tokens as a bar against its budget, the whole list against the total budget, annotations, routing
 * headers marked and refused, excluded operations and warnings.
 *
 * Every string from the description goes through htmlText. The page loads nothing: CSS and script are inline,
 * fonts are the system's, and its Content-Security-Policy forbids every fetch and any script but its own (by
 * hash), so even a escaping mistake could not run or load anything.
 */
export function renderPlanHtml(plan: ToolPlan, diagnostics: Diagnostic[], options: PlanHtmlOptions): string {
  const css = readTemplate('report/plan.css');
  const script = readTemplate('report/plan.js');
  const scriptHash = createHash('sha256').update(script).digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const title = `Tool plan: ${plan.api.title}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<title>${htmlText(title)}</title>
<style>${css}</style>
</head>
<body>
<header>
<h1>${htmlText(plan.api.title)} <span class="version">${htmlText(plan.api.version)}</span></h1>
<p class="sub">MCP tool plan by ${htmlText(options.generator)} — environment prefix <code>${htmlText(plan.api.envPrefix)}</code></p>
${totalsSection(plan)}
</header>
<main>
${surfaceSection(plan, options.surface)}
${toolsSection(plan, options.surface?.mode === 'search')}
${excludedSection(plan)}
${warningsSection(diagnostics)}
</main>
<footer>This page is self-contained: it loads no fonts, scripts or images from anywhere.</footer>
<script>${script}</script>
</body>
</html>
`;
}

function totalsSection(plan: ToolPlan): string {
  const { totals } = plan;
  const { budget } = totals;
  const cards = [
    card('Tools', number(totals.tools), `of at most ${number(budget.maxTools)}`, 'tools', totals.tools > budget.maxTools),
    card('Actions', number(totals.actions), `for ${number(totals.operations)} operations`, 'actions'),
    card('Excluded', number(totals.excluded), 'operations left out', 'excluded'),
    card('Tokens', number(totals.tokens), `of ${number(budget.maxTotalTokens)} budgeted`, 'tokens', totals.tokens > budget.maxTotalTokens),
  ].join('\n');
  const status = totals.withinBudget
    ? '<span class="status ok" data-testid="budget-status">within budget</span>'
    : '<span class="status over" data-testid="budget-status">over budget</span>';
  // The whole list as one bar: a segment per tool, its length its share of the total budget.
  const segments = [...plan.tools]
    .sort((a, b) => b.tokens - a.tokens)
    .map(
      (tool, index) =>
        `<span class="segment s${index % 6}" style="width:${percent(tool.tokens, Math.max(budget.maxTotalTokens, totals.tokens))}%" title="${htmlText(`${tool.name}: ${number(tool.tokens)} tokens`)}"></span>`,
    )
    .join('');
  return `<section class="totals" aria-label="Totals">
<div class="cards">
${cards}
</div>
<div class="budget">
<div class="budget-label">Token budget of the whole tool list ${status}</div>
<div class="stack" role="img" aria-label="${htmlText(`${number(totals.tokens)} of ${number(budget.maxTotalTokens)} tokens`)}">${segments}</div>
<div class="scale"><span>0</span><span>${number(Math.max(budget.maxTotalTokens, totals.tokens))} tokens</span></div>
</div>
</section>`;
}

function card(label: string, value: string, note: string, id: string, over = false): string {
  return `<div class="card${over ? ' over' : ''}" data-testid="total-${id}"><div class="label">${htmlText(label)}</div><div class="value">${htmlText(value)}</div><div class="note">${htmlText(note)}</div></div>`;
}

/**
 * Which surface `tools/list` serves. The search surface lists its few tools with their tokens (the list against the
 * total budget, each tool against the per-tool one) and the size of the index the server loads at start.
 */
function surfaceSection(plan: ToolPlan, surface: SurfaceChoice | undefined): string {
  if (!surface || (surface.mode === 'static' && surface.requested === 'static')) return '';
  const why = surface.reason ? ` (auto: ${surface.reason})` : '';
  const search = surface.search;
  if (!search)
    return `<section id="surface" aria-labelledby="surface-heading"><h2 id="surface-heading">Surface</h2>
<p data-testid="surface-mode">Served: the static tools below${htmlText(why)}.</p></section>`;
  const { budget } = plan.totals;
  const rows = search.tools
    .map((tool) => {
      const share = percent(tool.tokens, budget.maxToolTokens);
      const level = share > 100 ? 'over' : share > 80 ? 'high' : 'ok';
      const [kind, badge] = tool.annotations.readOnlyHint
        ? ['read-only', 'read']
        : tool.annotations.destructiveHint
          ? ['destructive', 'destructive']
          : ['writes', 'write'];
      return `<tr data-testid="surface-tool"><td><code>${htmlText(tool.name)}</code></td><td>${htmlText(tool.title)}</td><td><span class="badge ${badge}">${kind}</span></td><td><span class="meter"><span class="bar" role="meter" aria-label="${htmlText(`${tool.name} tokens`)}" aria-valuemin="0" aria-valuemax="${budget.maxToolTokens}" aria-valuenow="${tool.tokens}"><span class="fill ${level}" style="width:${Math.min(100, share)}%"></span></span><span class="tokens">${number(tool.tokens)}</span></span></td></tr>`;
    })
    .join('\n');
  const cards = [
    card('Tools served', number(search.tools.length), 'find, then call by safety class', 'surface-tools'),
    card(
      'Tokens',
      number(search.tokens),
      `of ${number(budget.maxTotalTokens)} budgeted`,
      'surface-tokens',
      search.tokens > budget.maxTotalTokens,
    ),
    card('Actions reachable', number(search.catalog.length), `${number(search.indexStats.terms)} index terms`, 'surface-actions'),
    card('Index', bytes(search.indexStats.bytes), `plus ${bytes(search.schemaBytes)} of action schemas`, 'surface-index'),
  ].join('\n');
  return `<section id="surface" aria-labelledby="surface-heading"><h2 id="surface-heading">Surface: search</h2>
<p data-testid="surface-mode">Served: a search surface${htmlText(why)}. Its tools find every action of the API and call it; the static tools below are not listed, they route the calls.</p>
<div class="cards">
${cards}
</div>
<table class="actions"><thead><tr><th scope="col">Tool</th><th scope="col">Title</th><th scope="col">Kind</th><th scope="col">Tokens</th></tr></thead><tbody>
${rows}
</tbody></table>
</section>`;
}

function bytes(value: number): string {
  return value >= 1_000_000 ? `${(value / 1_000_000).toFixed(1)} MB` : `${number(Math.ceil(value / 1000))} kB`;
}

function toolsSection(plan: ToolPlan, searchServed = false): string {
  const max = plan.totals.budget.maxToolTokens;
  const items = plan.tools.map((tool) => toolItem(tool, max)).join('\n');
  return `<section id="tools" aria-labelledby="tools-heading">
<div class="toolbar">
<h2 id="tools-heading">${searchServed ? 'Actions, by static tool (not listed; they route the calls)' : 'Tools'}</h2>
<input type="search" id="filter" placeholder="Filter by tool, action, path or operationId" aria-label="Filter tools">
<label>Sort <select id="sort" aria-label="Sort tools"><option value="name">by name</option><option value="tokens">by tokens</option><option value="actions">by actions</option></select></label>
<button type="button" id="toggle">Expand all</button>
</div>
<p class="legend">Bars: tokens of each tool's <code>tools/list</code> entry against the per-tool budget of ${number(max)} tokens.</p>
<ol class="tools" id="tool-list">
${items}
</ol>
<p class="empty" id="no-match" hidden>No tool matches the filter.</p>
</section>`;
}

function toolItem(tool: ToolModel, maxToolTokens: number): string {
  const share = percent(tool.tokens, maxToolTokens);
  const level = share > 100 ? 'over' : share > 80 ? 'high' : 'ok';
  const searchable = [tool.name, tool.title, ...tool.actions.flatMap((action) => [action.name, action.operation.path, action.operation.id])]
    .join(' ')
    .toLowerCase();
  return `<li class="tool" data-name="${htmlText(tool.name)}" data-tokens="${tool.tokens}" data-actions="${tool.actions.length}" data-search="${htmlText(searchable)}">
<details>
<summary>
<span class="tool-name"><code>${htmlText(tool.name)}</code></span>
<span class="tool-title">${htmlText(tool.title)}</span>
<span class="badges">${badges(tool)}</span>
<span class="meter"><span class="bar" role="meter" aria-label="${htmlText(`${tool.name} tokens`)}" aria-valuemin="0" aria-valuemax="${maxToolTokens}" aria-valuenow="${tool.tokens}"><span class="fill ${level}" style="width:${Math.min(100, share)}%"></span></span><span class="tokens">${number(tool.tokens)}</span></span>
</summary>
<div class="tool-body">
<p class="description">${htmlText(tool.description)}</p>
${actionsTable(tool)}
${headersBlock(tool)}
<p class="meta">${tool.actions.length === 1 ? '1 action' : `${tool.actions.length} actions`}, ${Object.keys((tool.inputSchema['properties'] as object | undefined) ?? {}).length} input properties, schema detail level ${tool.detail} (0 keeps all detail, 4 the least).</p>
</div>
</details>
</li>`;
}

function badges(tool: ToolModel): string {
  const { annotations } = tool;
  const list: Array<[string, string]> = [];
  if (annotations.readOnlyHint) list.push(['read-only', 'read']);
  if (annotations.destructiveHint) list.push(['destructive', 'destructive']);
  if (annotations.idempotentHint) list.push(['idempotent', 'idempotent']);
  if (annotations.openWorldHint) list.push(['open world', 'open']);
  if (!annotations.readOnlyHint && !annotations.destructiveHint) list.push(['writes', 'write']);
  if (tool.headers.marked.length > 0)
    list.push([`${tool.headers.marked.length} header${tool.headers.marked.length === 1 ? '' : 's'}`, 'header']);
  return list.map(([text, kind]) => `<span class="badge ${kind}">${htmlText(text)}</span>`).join('');
}

function actionsTable(tool: ToolModel): string {
  const rows = tool.actions
    .map(
      (action) =>
        `<tr><td>${action.name ? `<code>${htmlText(action.name)}</code>` : '<span class="muted">(single)</span>'}</td><td><span class="method ${htmlText(action.operation.method)}">${htmlText(action.operation.method.toUpperCase())}</span></td><td><code>${htmlText(action.operation.path)}</code>${action.operation.deprecated ? ' <span class="badge deprecated">deprecated</span>' : ''}</td><td><code>${htmlText(action.operation.id)}</code></td><td>${htmlText(action.summary)}</td></tr>`,
    )
    .join('\n');
  return `<table class="actions"><thead><tr><th scope="col">Action</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">operationId</th><th scope="col">What it does</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}

function headersBlock(tool: ToolModel): string {
  const { marked, refused } = tool.headers;
  if (marked.length === 0 && refused.length === 0) return '';
  const items = [
    ...marked.map(
      (decision) =>
        `<li class="marked"><code>Mcp-Param-${htmlText(decision.header ?? '')}</code> ← <code>${htmlText(decision.property)}</code> <span class="muted">${htmlText(decision.reason)}</span></li>`,
    ),
    ...refused.map(
      (decision) =>
        `<li class="refused">not a header: <code>${htmlText(decision.property)}</code> <span class="muted">${htmlText(decision.reason)}</span></li>`,
    ),
  ].join('\n');
  return `<div class="headers"><h3>Routing headers (x-mcp-header)</h3><ul>
${items}
</ul></div>`;
}

function excludedSection(plan: ToolPlan): string {
  if (plan.excluded.length === 0) return '';
  const rows = plan.excluded
    .map((entry) => `<tr><td><code>${htmlText(entry.key)}</code></td><td>${htmlText(entry.reason)}</td></tr>`)
    .join('\n');
  return `<section id="excluded" aria-labelledby="excluded-heading"><h2 id="excluded-heading">Excluded operations</h2>
<table class="excluded"><thead><tr><th scope="col">Operation</th><th scope="col">Why</th></tr></thead><tbody>
${rows}
</tbody></table></section>`;
}

function warningsSection(diagnostics: Diagnostic[]): string {
  const shown = diagnostics.filter((diagnostic) => diagnostic.severity !== 'info');
  const body =
    shown.length === 0
      ? '<p class="muted">No warnings.</p>'
      : `<ul class="warnings">
${shown
  .map(
    (diagnostic) =>
      `<li class="${diagnostic.severity}"><span class="code">${htmlText(`${diagnostic.severity}[${diagnostic.code}]`)}</span> ${htmlText(diagnostic.message)}${diagnostic.pointer ? `<div class="muted">at <code>${htmlText(diagnostic.pointer)}</code></div>` : ''}${diagnostic.hint ? `<div class="hint">${htmlText(diagnostic.hint)}</div>` : ''}</li>`,
  )
  .join('\n')}
</ul>`;
  return `<section id="warnings" aria-labelledby="warnings-heading"><h2 id="warnings-heading">Warnings <span class="count">${shown.length}</span></h2>
${body}
</section>`;
}
