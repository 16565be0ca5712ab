/**
 * Request and response types, read off the generated OpenAPI types by path and method only
 * (never by component name), so they follow the document however its schemas are named.
 */
import type { FailureCode } from './codes.js';
import type { paths, webhooks } from './generated/openapi.js';

export type { paths };
type Method = 'get' | 'post';
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type Responses<P extends keyof paths, M extends Method> = Op<P, M> extends { responses: infer R } ? R : never;
type Success<P extends keyof paths, M extends Method> = JsonOf<Responses<P, M>[200 & keyof Responses<P, M>]>;

/** `data` of the 200 response. */
export type DataOf<P extends keyof paths, M extends Method> = Success<P, M> extends { data: infer D } ? D : never;
/** `meta` of the 200 response (paginated lists). */
export type MetaOf<P extends keyof paths, M extends Method> = Success<P, M> extends { meta: infer X } ? X : never;
/** The JSON request body. */
export type BodyOf<P extends keyof paths, M extends Method> = Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The query parameters. */
export type QueryOf<P extends keyof paths, M extends Method> = Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** Every documented `error` code of an operation. */
export type ErrorCodeOf<P extends keyof paths, M extends Method> = {
  [S in keyof Responses<P, M>]: JsonOf<Responses<P, M>[S]> extends { error: infer E } ? E : never;
}[keyof Responses<P, M>];

type AllOps = { [P in keyof paths]: { [M in Method]: paths[P][M] extends undefined | never ? never : ErrorCodeOf<P, M> }[Method] }[keyof paths];
/** Every error code the API v1 document declares. */
export type ApiErrorCode = AllOps;

export type Category = DataOf<'/categories', 'get'>['categories'][number];
export type Product = DataOf<'/products', 'get'>['products'][number];
export type PageMeta = MetaOf<'/products', 'get'>;
export type ProductsQuery = QueryOf<'/products', 'get'>;
export type OrderRequest = BodyOf<'/order', 'post'>;
export type OrderCreated = DataOf<'/order', 'post'>;
/** `failure_code` typed as the known codes (an open set). */
type WithFailureCode<T> = T extends { failure_code: unknown } ? Omit<T, 'failure_code'> & { failure_code: FailureCode | null } : T;
export type Order = WithFailureCode<DataOf<'/order-status', 'get'>>;
export type OrderStatus = Order['status'];
export type OrdersQuery = QueryOf<'/orders', 'get'>;
export type ValidationRequest = BodyOf<'/validation', 'post'>;
export type ValidationResult = DataOf<'/validation', 'post'>;
export type Balance = DataOf<'/balance', 'get'>;
export type WalletQuery = QueryOf<'/wallet-history', 'get'>;
export type LedgerEntry = DataOf<'/wallet-history', 'get'>['entries'][number];
export type CallbackLog = DataOf<'/callbacks', 'get'>;
export type CallbackResent = DataOf<'/callbacks/resend', 'post'>;
/** The order callback's JSON body (the document's `orderCallback` webhook). */
export type CallbackPayload = WithFailureCode<JsonOf<NonNullable<webhooks['orderCallback']['post']>['requestBody']>>;

/** A page of a paginated list: the list's `data` fields plus `meta`. */
export type Page<D, M = PageMeta> = D & { meta: M };
