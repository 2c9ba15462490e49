import { printJsonDocument, type PrintValue } from './print/print-value.js';

/**
 * Ready-to-paste set-ups of the generated server for MCP clients, over stdio (the client starts the server) and over
 * HTTP (the client reaches a running one), for the README. Built here rather than in the template so that each
 * format's quoting is done by code: JSON by the JSON printer, TOML keys bare only when TOML allows, and strings as TOML
 * basic strings (whose escapes JSON's are a subset of).
 */
export type ClientSetup = {
  /** Markdown: the client and the file the set-up goes in. */
  heading: string;
  language: 'json' | 'toml' | 'sh';
  stdio: string;
  /** For a running HTTP server; absent where the client reaches HTTP servers another way. */
  http?: string;
};

export type ClientSetupOptions = {
  /** The server's name in the client's settings: the project's npm name. */
  name: string;
  /** The built entry the client starts with `node`. */
  entry: string;
  /** Variables the client passes (one alternative of each credential choice); secrets are all but user names and client ids. */
  env: Array<{ name: string; secret: boolean; label: string }>;
  url: string;
};

/** What a client set-up holds for a value the user still has to fill in: the server treats it as unset. */
export const PLACEHOLDER_VALUE = '…';

export function clientSetups(options: ClientSetupOptions): ClientSetup[] {
  const { name, entry, url } = options;
  const stdio = { command: 'node', args: [entry] };
  const env = Object.fromEntries(options.env.map((variable) => [variable.name, PLACEHOLDER_VALUE]));
  // Prettier's layout: short arrays and objects on one line, as the vendors' own documentation shows them.
  const json = (value: PrintValue) => printJsonDocument(value).trimEnd();
  return [
    {
      heading: '**Claude Desktop** (`claude_desktop_config.json`)',
      language: 'json',
      stdio: json({ mcpServers: { [name]: { ...stdio, env } } }),
    },
    {
      heading: '**Claude Code**',
      language: 'sh',
      stdio: `claude mcp add ${shellWord(name)}${options.env.map((variable) => ` --env ${variable.name}=${PLACEHOLDER_VALUE}`).join('')} -- node ${shellWord(entry)}`,
      http: `claude mcp add --transport http ${shellWord(name)} ${shellWord(url)}`,
    },
    {
      // VS Code asks for each input once and keeps it in its secret storage: no secret sits in the workspace's file.
      heading: '**VS Code** (`.vscode/mcp.json`; VS Code asks for the values and keeps them in its secret storage)',
      language: 'json',
      stdio: json({
        ...(options.env.length > 0
          ? {
              inputs: options.env.map((variable) => ({
                type: 'promptString',
                id: inputId(variable.name),
                description: `${variable.name} (${variable.label})`,
                password: variable.secret,
              })),
            }
          : {}),
        servers: {
          [name]: {
            type: 'stdio',
            ...stdio,
            env: Object.fromEntries(options.env.map((variable) => [variable.name, `\${input:${inputId(variable.name)}}`])),
          },
        },
      }),
      http: json({ servers: { [name]: { type: 'http', url } } }),
    },
    {
      heading: '**Cursor** (`.cursor/mcp.json`)',
      language: 'json',
      stdio: json({ mcpServers: { [name]: { ...stdio, env } } }),
      http: json({ mcpServers: { [name]: { url } } }),
    },
    {
      heading: '**Codex** (`~/.codex/config.toml`)',
      language: 'toml',
      stdio: [
        `[mcp_servers.${tomlKey(name)}]`,
        `command = ${tomlString('node')}`,
        `args = [${tomlString(entry)}]`,
        ...(options.env.length > 0
          ? [
              '',
              `[mcp_servers.${tomlKey(name)}.env]`,
              ...options.env.map((variable) => `${tomlKey(variable.name)} = ${tomlString(PLACEHOLDER_VALUE)}`),
            ]
          : []),
      ].join('\n'),
      http: [`[mcp_servers.${tomlKey(name)}]`, `url = ${tomlString(url)}`].join('\n'),
    },
    {
      heading: '**Gemini CLI** (`~/.gemini/settings.json`, or `.gemini/settings.json` in a project)',
      language: 'json',
      stdio: json({ mcpServers: { [name]: { ...stdio, env } } }),
      http: json({ mcpServers: { [name]: { httpUrl: url } } }),
    },
    {
      heading: '**Windsurf** (`~/.codeium/windsurf/mcp_config.json`)',
      language: 'json',
      stdio: json({ mcpServers: { [name]: { ...stdio, env } } }),
      http: json({ mcpServers: { [name]: { serverUrl: url } } }),
    },
    {
      heading: '**Cline** (`cline_mcp_settings.json`: MCP Servers, Configure)',
      language: 'json',
      stdio: json({ mcpServers: { [name]: { ...stdio, env, disabled: false } } }),
      http: json({ mcpServers: { [name]: { type: 'streamableHttp', url, disabled: false } } }),
    },
  ];
}

/** `STRIPE_BEARER_AUTH` → `stripe-bearer-auth`, an input id VS Code shows. */
function inputId(variable: string): string {
  return variable.toLowerCase().replace(/_/g, '-');
}

/** A TOML key: bare when it is letters, digits, `-` and `_`, else a quoted basic string. */
function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

/** A TOML basic string: JSON's escapes (`\"`, `\\`, `\n`, `\uXXXX` …) are all valid there; TOML also refuses a raw DEL. */
function tomlString(value: string): string {
  return JSON.stringify(value).replace(/\u007f/g, '\\u007f');
}

/** A word for a POSIX shell: as it is when it holds nothing the shell reads, else in single quotes. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
