export { authenticate, createJwt, type Jwt, type JwtOptions, type Principal } from './auth.js';
export * from './channel-serializers.js';
export { errorBody, errorResponse, HTTP_STATUS } from './error-mapping.js';
export {
  createFetchHandler,
  type FetchHandlerOptions,
  type FetchRequestContext,
  type MeterFetchHandler,
} from './fetch.js';
export { createMeterHandler, DEFAULT_BODY_LIMIT, type HandlerOptions, isMeterPath } from './handler.js';
export {
  createNodeListener,
  handleNodeRequest,
  type NodeBodyOptions,
  readRawBody,
  serveNode,
  toMeterRequest,
  writeMeterResponse,
} from './node.js';
export type { Route, RouteContext, RouteResult } from './router.js';
export * from './serializers.js';
export type { MeterHandler, MeterHttpHandler, MeterRequest, MeterResponse } from './types.js';
