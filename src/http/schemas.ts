import { Type, type TSchema } from '@sinclair/typebox';

/**
 * Schema pieces shared by the operator and dashboard APIs (TypeBox: JSON Schema that is
 * also the TypeScript type). They validate requests and make up the OpenAPI documents.
 */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** A string out of a fixed list, as a JSON Schema enum (its errors read "must be one of …"). */
export const StringEnum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** Money leaves and enters the APIs in major units of the one configured currency, as JSON numbers. */
export const Money = (description = 'amount in major units of the configured currency') => Type.Number({ description });

export const IsoTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

/** page and limit arrive as text and are checked by parsePage (INVALID_PAGINATION, like API v1). */
export const PageQueryProps = {
  page: Type.Optional(Type.String({ description: '1-based page, default 1' })),
  limit: Type.Optional(Type.String({ description: 'items per page, 1 to 100, default 50' })),
};

export const PageMeta = Type.Object({
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
  total_pages: Type.Integer(),
  has_more: Type.Boolean(),
});

export const SignInBody = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const SessionData = Type.Object({
  token: Type.String({ description: 'send as "Authorization: Bearer <token>" (scripts); browsers use the HttpOnly session cookie set by the same answer' }),
  expires_at: IsoTime(),
  csrf_token: Type.String({ description: 'send as X-CSRF-Token on POST, PUT, PATCH and DELETE authenticated by the session cookie' }),
});

export const Ok = Type.Object({ ok: Type.Literal(true) });
