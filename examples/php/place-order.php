<?php
/**
 * Places one order, polls it until it is final, and receives and verifies its callback.
 * PHP 8 with the curl extension; no framework, no Composer packages.
 *
 *   TOPUP_BASE_URL=http://127.0.0.1:8080/api/v1 TOPUP_API_KEY=tk_... TOPUP_API_SECRET=ts_... \
 *   TOPUP_CALLBACK_PORT=8787 php examples/php/place-order.php
 *
 * Your callback URL must point at this listener: http://<this host>:8787/callback
 * (dashboard: Settings; or `npx topup callback-url EMAIL URL`). In a real shop the callback
 * is a route of your web application: the verifyCallback() below is all it needs.
 */

function env(string $name, ?string $default = null): string {
    $value = getenv($name);
    if ($value === false || $value === '') $value = $default;
    if ($value === null || $value === '') { fwrite(STDERR, "set $name\n"); exit(1); }
    return $value;
}

$baseUrl = rtrim(env('TOPUP_BASE_URL'), '/');
$apiKey = env('TOPUP_API_KEY');
$apiSecret = env('TOPUP_API_SECRET');
$refId = env('TOPUP_REF_ID', 'example-php-' . (int) (microtime(true) * 1000));
$port = (int) env('TOPUP_CALLBACK_PORT', '8787');
$waitSeconds = (int) env('TOPUP_WAIT_SECONDS', '60');
const TOLERANCE_MS = 300000;

final class ApiError extends Exception {
    public function __construct(public int $status, public string $code_, public ?string $requestId, string $message) {
        parent::__construct("$code_ (HTTP $status, request $requestId): $message");
    }
}

function nowMs(): string { return (string) (int) floor(microtime(true) * 1000); }

/** One signed request. GET signs the timestamp; POST signs the exact body + timestamp. */
function call(string $method, string $path, ?array $body = null): array {
    global $baseUrl, $apiKey, $apiSecret;
    $timestamp = nowMs();
    $json = $body === null ? '' : json_encode($body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
    $headers = [
        "X-Api-Key: $apiKey",
        "X-Timestamp: $timestamp",
        'X-Signature: ' . hash_hmac('sha256', $json . $timestamp, $apiSecret),
        'Accept: application/json',
    ];
    $ch = curl_init($baseUrl . $path);
    curl_setopt_array($ch, [CURLOPT_RETURNTRANSFER => true, CURLOPT_TIMEOUT => 15, CURLOPT_CUSTOMREQUEST => $method]);
    if ($body !== null) {
        $headers[] = 'Content-Type: application/json';
        curl_setopt($ch, CURLOPT_POSTFIELDS, $json); // sent exactly as signed, with Content-Length
    }
    curl_setopt($ch, CURLOPT_HTTPHEADER, $headers);
    $text = curl_exec($ch);
    if ($text === false) throw new RuntimeException('network error: ' . curl_error($ch));
    $status = curl_getinfo($ch, CURLINFO_HTTP_CODE);
    curl_close($ch);
    $parsed = json_decode($text, true) ?? [];
    if ($status !== 200) throw new ApiError($status, $parsed['error'] ?? "HTTP_$status", $parsed['request_id'] ?? null, $parsed['message'] ?? '');
    return $parsed['data'];
}

/** The spec's check: fresh X-Timestamp, X-Signature = HMAC(body + timestamp), compared in constant time. */
function verifyCallback(string $rawBody, array $headers, string $secret): bool {
    $headers = array_change_key_case($headers, CASE_LOWER);
    $timestamp = $headers['x-timestamp'] ?? '';
    $given = strtolower($headers['x-signature'] ?? '');
    if (!ctype_digit($timestamp) || $given === '') return false;
    if (abs((int) nowMs() - (int) $timestamp) > TOLERANCE_MS) return false;
    return hash_equals(hash_hmac('sha256', $rawBody . $timestamp, $secret), $given);
}

/** Reads one HTTP request from an accepted connection: [headers, raw body]. */
function readRequest($conn): array {
    $head = '';
    while (!str_contains($head, "\r\n\r\n") && ($chunk = fread($conn, 8192)) !== false && $chunk !== '') $head .= $chunk;
    [$headText, $body] = explode("\r\n\r\n", $head, 2) + [1 => ''];
    $lines = explode("\r\n", $headText);
    $requestLine = array_shift($lines);
    $headers = [];
    foreach ($lines as $line) {
        [$name, $value] = array_map('trim', explode(':', $line, 2)) + [1 => ''];
        $headers[strtolower($name)] = $value;
    }
    $length = (int) ($headers['content-length'] ?? 0);
    while (strlen($body) < $length && ($chunk = fread($conn, $length - strlen($body))) !== false && $chunk !== '') $body .= $chunk;
    return [$requestLine, $headers, $body];
}

$seenRounds = [];
$ourCallback = null;
/** Handles every callback waiting on the listener for up to $seconds. */
function serveCallbacks($server, float $seconds): void {
    global $apiSecret, $refId, $seenRounds, $ourCallback;
    $read = [$server];
    $write = $except = null;
    if (stream_select($read, $write, $except, (int) $seconds, (int) (fmod($seconds, 1) * 1e6)) < 1) return;
    $conn = stream_socket_accept($server, 5);
    if ($conn === false) return;
    stream_set_timeout($conn, 5);
    [$requestLine, $headers, $body] = readRequest($conn);
    $ok = str_starts_with($requestLine, 'POST /callback ') && verifyCallback($body, $headers, $apiSecret);
    if ($ok) {
        $payload = json_decode($body, true);
        $round = $headers['x-callback-id'] ?? '';
        if (!isset($seenRounds[$round])) { // delivery is at-least-once: act once per round
            $seenRounds[$round] = true;
            echo "callback verified: ref_id={$payload['ref_id']} status={$payload['status']} (round $round)\n";
            if ($payload['ref_id'] === $refId) $ourCallback = $payload;
        }
    } else {
        echo "callback refused: bad signature or stale timestamp\n";
    }
    fwrite($conn, $ok ? "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n" : "HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    fclose($conn);
}

$server = stream_socket_server("tcp://0.0.0.0:$port", $errno, $errstr);
if ($server === false) { fwrite(STDERR, "cannot listen on $port: $errstr\n"); exit(1); }
echo "listening for callbacks on port $port (path /callback)\n";

try {
    $balance = call('GET', '/balance');
    echo "balance: {$balance['balance']} {$balance['currency']}\n";

    $order = ['ref_id' => $refId, 'product_code' => env('TOPUP_PRODUCT_CODE', 'FF-100'), 'target' => env('TOPUP_TARGET', '123456789')];
    if (getenv('TOPUP_ZONE')) $order['zone'] = getenv('TOPUP_ZONE');
    // On a network error, retry with the SAME ref_id; a 409 DUPLICATE_REF_ID after such a
    // retry means the first attempt went through: read it with GET /order-status.
    $placed = call('POST', '/order', $order);
    echo "order placed: ref_id={$placed['ref_id']} order_code={$placed['order_code']} price={$placed['price']} status={$placed['status']}\n";

    $deadline = microtime(true) + $waitSeconds;
    do {
        serveCallbacks($server, 1.0); // waits up to 1 s between polls, answering callbacks meanwhile
        $status = call('GET', '/order-status?' . http_build_query(['ref_id' => $refId]));
        if (microtime(true) > $deadline) throw new RuntimeException("order $refId still processing after $waitSeconds s");
    } while ($status['status'] === 'processing');
    $extra = ($status['serial_number'] ? " serial={$status['serial_number']}" : '') . ($status['failure_code'] ? " failure_code={$status['failure_code']}" : '');
    echo "final status: {$status['status']}$extra\n";

    while ($ourCallback === null && microtime(true) < $deadline) serveCallbacks($server, 1.0);
    if ($ourCallback === null) throw new RuntimeException("no callback for $refId within $waitSeconds s");
    echo "done: order {$ourCallback['order_code']} {$ourCallback['status']}, callback verified\n";
} catch (Throwable $e) {
    fwrite(STDERR, ($e instanceof ApiError ? 'API error ' : 'error: ') . $e->getMessage() . "\n");
    exit(1);
} finally {
    fclose($server);
}
