import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * A request's logger (`req.log`) that makes its pino child, bound to the request id, only
 * when the request writes a line. Fastify makes one per request otherwise, and with the
 * request log off (LOG_LEVEL above info: the access log line is not even built) most
 * requests write none, and making it serializes its bindings through the redaction rules
 * (its cost: docs/performance.md).
 */
class LazyRequestLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: NonNullable<ChildOptions>,
  ) {}

  private logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  private write(method: Method, args: unknown[]) {
    const l = this.logger();
    Reflect.apply(l[method], l, args);
  }

  fatal(...args: unknown[]) { this.write('fatal', args); }
  error(...args: unknown[]) { this.write('error', args); }
  warn(...args: unknown[]) { this.write('warn', args); }
  info(...args: unknown[]) { this.write('info', args); }
  debug(...args: unknown[]) { this.write('debug', args); }
  trace(...args: unknown[]) { this.write('trace', args); }
  silent(...args: unknown[]) { this.write('silent', args); }
}

/** Fastify's `childLoggerFactory`: every request gets a LazyRequestLogger. */
export const lazyRequestLogger = (logger: FastifyBaseLogger, bindings: Bindings, options: NonNullable<ChildOptions>): FastifyBaseLogger =>
  new LazyRequestLogger(logger, bindings, options);
