// CMetricsHTTP: HTTPS GET requests through libcurl, for App Store Connect, and POST requests, for alerts.
//
// Every function is prefixed `mr_` and says why it exists. libcurl is reached only here: its options
// are set through a variadic function Swift cannot call, and its callbacks write into memory this
// shim owns. The library is loaded at the first request, not linked (mr_http.c says why); where it
// cannot be loaded, a request fails with the loader's reason. Swift code calls these functions only
// through the RetryingHTTP module.
#ifndef MR_HTTP_H
#define MR_HTTP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One response. Free it with mr_http_response_free.
typedef struct mr_http_response {
  /// The HTTP status (0 when the request failed before one arrived).
  long status;
  /// The body, NUL-terminated, and its length (without the NUL).
  char *body;
  size_t body_length;
  /// The Retry-After header's value in seconds, or -1 when absent or not a number of seconds.
  long retry_after;
  /// Why the request failed before a status, else empty.
  char error[256];
} mr_http_response;

/// Why: one GET with the given headers ("Name: value"), verifying the server against the system's
/// certificate authorities or `ca_file` (a PEM bundle; NULL for the system's), following no redirect
/// (an API answer is never one, and a redirect would carry the bearer token elsewhere), with a
/// timeout, and a body limit past which the transfer stops. Returns 0 when a status arrived, -1 when
/// the request failed (`out->error` says why), -2 when the body passed `max_body` bytes. Nothing it
/// writes to `out->error` contains the headers.
int mr_http_get(const char *url, const char *const *headers, size_t header_count, const char *ca_file,
                long timeout_seconds, size_t max_body, mr_http_response *out);

/// Why: one POST of `body` (`body_length` bytes) with the given headers, to an http or https URL (an
/// Alertmanager inside a cluster is reached in clear; the caller decides where a token may go), with
/// the same verification, timeout, body limit and return values as mr_http_get.
int mr_http_post(const char *url, const char *const *headers, size_t header_count, const char *body,
                 size_t body_length, const char *ca_file, long timeout_seconds, size_t max_body,
                 mr_http_response *out);

/// Why: the body is allocated by the shim; this frees it (and is safe on a zeroed response).
void mr_http_response_free(mr_http_response *response);

#ifdef __cplusplus
}
#endif

#endif
