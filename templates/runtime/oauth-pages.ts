// The two pages a person sees of this server's sign-in (`oauth` mode): the consent page, which says which client asks
// to act as them at which API and where its tokens go, and an error page. Every value is escaped; the pages load
// nothing, run no script and refuse to be framed (clickjacking).

const SECURITY_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

export type ConsentView = {
  apiTitle: string;
  clientName: string;
  redirectUri: string;
  signInHost: string;
  scopes: string[];
  /** The sealed authorization request the form posts back. */
  request: string;
};

export function consentPage(view: ConsentView, headers: Record<string, string>): Response {
  const scopes =
    view.scopes.length > 0
      ? `<p>It asks for: ${view.scopes.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(', ')}.</p>`
      : '';
  const body = `<h1>Allow ${escapeHtml(view.clientName)} to use ${escapeHtml(view.apiTitle)} as you?</h1>
<p><strong>${escapeHtml(view.clientName)}</strong> (a client that registered itself; the name is its own claim) wants to
call ${escapeHtml(view.apiTitle)} with your account. Its access goes to <code>${escapeHtml(view.redirectUri)}</code>.</p>
<p>If you allow it, you sign in at <strong>${escapeHtml(view.signInHost)}</strong> next.</p>
${scopes}
<form method="post" action="/oauth/authorize">
<input type="hidden" name="request" value="${escapeHtml(view.request)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`;
  return new Response(page(`Allow ${view.clientName}?`, body), {
    status: 200,
    headers: { ...SECURITY_HEADERS, ...headers },
  });
}

export function errorPage(
  status: number,
  title: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const body = `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`;
  return new Response(page(title, body), { status, headers: { ...SECURITY_HEADERS, ...headers } });
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.4rem 1.2rem;margin-right:.5rem}code{word-break:break-all}</style>
</head><body>
${body}
</body></html>
`;
}

export function escapeHtml(text: string): string {
  const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  // Control characters have no business in a name or a URL shown to a person.
  return text.replace(/[&<>"']|[\u0000-\u001f\u007f]/g, (character) => entities[character] ?? '\ufffd');
}
