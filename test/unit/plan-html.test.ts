import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readTemplate } from '../../src/emit/templates.js';
import { htmlText } from '../../src/emit/text-safety.js';
import { renderPlanHtml } from '../../src/report/plan-html.js';
import { openapi, planOf } from '../helpers/inline.js';

const EVIL = `Pets <script>window.__pwned = 1</script> <img src=x onerror="alert(1)"> "quoted" 'single' & more`;

describe('plan --html', () => {
  it('escapes description text, loads nothing and allows only its own script', async () => {
    const { plan, diagnostics } = await planOf(
      openapi(
        {
          '/pets': {
            get: { operationId: 'listPets', summary: EVIL, description: EVIL, responses: { 200: { description: 'ok' } } },
            post: { operationId: 'addPet', summary: 'Add', responses: { 200: { description: 'ok' } } },
          },
        },
        { info: { title: EVIL, version: '1' } },
      ),
    );
    const html = renderPlanHtml(plan, diagnostics.items, { generator: 'openapi-to-mcp test' });
    expect(html).not.toContain('<script>window');
    expect(html).not.toContain('<img');
    expect(html).toContain(htmlText('<script>window.__pwned = 1</script>'));
    // Exactly one script element, the page's own, and the policy names it by hash.
    expect(html.match(/<script/g)).toHaveLength(1);
    const hash = createHash('sha256').update(readTemplate('report/plan.js')).digest('base64');
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
    expect(html).not.toMatch(/@import|url\(/);
    for (const tool of plan.tools) expect(html).toContain(`data-name="${tool.name}"`);
  });

  it('escapes the five characters that open markup or close an attribute', () => {
    expect(htmlText(`<a href="x" title='y'>&</a>`)).toBe('&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
  });
});
