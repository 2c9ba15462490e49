// Your hooks: this file belongs to you. openapi-to-mcp creates it once and never overwrites it.
//
// beforeRequest runs before every API request (add headers, sign requests, log); afterResponse runs after every
// response (inspect or rewrite the body). Both receive the tool, the action and the arguments of the call.

import type { Hooks } from '../runtime/core/types.js';

export const hooks: Hooks = {
  // beforeRequest(request, context) {
  //   request.headers.set('X-Request-Source', `mcp/${context.tool}`);
  // },
  // afterResponse(response, context) {},
};
