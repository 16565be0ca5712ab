export { TopupClient, type ClientOptions, type PlacedOrder, type PlaceOrderOptions, type WaitOptions } from './client.js';
export type { CallOptions, RetryOptions } from './transport.js';
export { TopupApiError, TopupError, TopupTransportError, type ErrorCode } from './errors.js';
export { signRequest } from './crypto.js';
export { verifyCallback, readHeader, type HeadersInput, type VerifyOptions, type VerifyResult, type VerifyFailure } from './verify.js';
export { MemoryCallbackStore, type CallbackStore } from './dedupe.js';
export { orderTarget, TopupFormError, type FormField, type FormValues, type OrderTarget } from './order-form.js';
export {
  createCallbackProcessor, expressCallbackHandler, fastifyCallbackHandler, fetchCallbackHandler, registerFastifyCallback,
  type CallbackHandlerOptions, type CallbackInfo, type CallbackOutcome, type FastifyLikeReply, type FastifyLikeRequest,
  type NodeLikeRequest, type NodeLikeResponse,
} from './handlers.js';
export type * from './types.js';
