// Errors the model can act on.

/** A problem with the arguments a model passed: reported as an `isError` result naming the argument and the fix. */
export class ArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArgumentError';
  }
}

/** A problem with the server's configuration (missing base URL, unreadable upload folder). */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

/** The user's sign-in no longer works for the API (per-user modes): they must sign in again in their MCP client. */
export class SignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInError';
  }
}
