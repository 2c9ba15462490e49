// The two pages a person sees of this server's sign-in (`oauth` mode): the consent page, which says which client asks
// to act as them at which API and where its tokens go, and an error page. Every value is escaped, and characters that
// would make text look other than it is (controls, bidirectional overrides, invisible ones) are shown as their code
// points; the pages load nothing, run no script and refuse to be framed (clickjacking).

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
call ${escapeHtml(view.apiTitle)} with your account. Its access goes to ${destination(view.redirectUri)}.</p>
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

/**
 * Where the browser goes after approval, as it will go there: the host the URL resolves to (WHATWG parsing, as the
 * browser does: `https://evil.example\@good.example/cb` goes to evil.example; international names in their ASCII
 * form, which cannot imitate another), then the whole address as the browser will request it.
 */
function destination(redirectUri: string): string {
  const url = new URL(redirectUri);
  const where = url.host !== '' ? url.host : `the application that handles ${url.protocol} addresses`;
  return `<strong>${escapeHtml(where)}</strong> (<code>${escapeHtml(url.href)}</code>)`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Characters a person cannot see for what they are: C0 and C1 controls, bidirectional marks, embeddings, overrides
 * and isolates (U+202E turns `exe.txt` into what looks like `txt.exe`), zero-width and other invisible characters,
 * line and paragraph separators.
 */
const DECEPTIVE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]/g;

export function escapeHtml(text: string): string {
  return text
    .replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character)
    .replace(DECEPTIVE, (character) => `[U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`);
}
