export { TopupClient, pollGap, type ClientOptions, type PlacedOrder, type PlaceOrderOptions, type Result, type WaitOptions } from './client.js';
export type { CallOptions, Hooks, RequestHookInfo, ResponseHookInfo, RetryOptions } from './transport.js';
export {
  TopupApiError, TopupAuthenticationError, TopupConflictError, TopupError, TopupInsufficientBalanceError, TopupNotFoundError,
  TopupRateLimitError, TopupServerError, TopupTransportError, TopupValidationError,
  type ApiErrorKind, type ErrorCode, type TransportErrorCode,
} from './errors.js';
export { responseOf, type RateLimitState, type ResponseInfo } from './response.js';
export { FAILURE_CODES, isKnownFailureCode, type FailureCode, type KnownFailureCode } from './codes.js';
export { VERSION } from './version.js';
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
