#include "mr_http.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

// curl_global_init is not thread-safe: run it once, before the first handle.
static pthread_once_t mr_curl_once = PTHREAD_ONCE_INIT;
static void mr_curl_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

typedef struct {
  mr_http_response *response;
  size_t capacity;
  size_t limit;
  int over_limit;
} mr_body_sink;

static size_t mr_write_body(char *data, size_t size, size_t count, void *context) {
  mr_body_sink *sink = context;
  size_t n = size * count;
  mr_http_response *r = sink->response;
  if (r->body_length + n > sink->limit) {
    sink->over_limit = 1;
    return 0;  // stops the transfer
  }
  if (r->body_length + n + 1 > sink->capacity) {
    size_t capacity = sink->capacity ? sink->capacity : 65536;
    while (capacity < r->body_length + n + 1) capacity *= 2;
    char *grown = realloc(r->body, capacity);
    if (!grown) return 0;
    r->body = grown;
    sink->capacity = capacity;
  }
  memcpy(r->body + r->body_length, data, n);
  r->body_length += n;
  r->body[r->body_length] = 0;
  return n;
}

static size_t mr_read_header(char *data, size_t size, size_t count, void *context) {
  mr_http_response *r = context;
  size_t n = size * count;
  static const char name[] = "retry-after:";
  size_t length = sizeof(name) - 1;
  if (n > length && strncasecmp(data, name, length) == 0) {
    char value[32] = {0};
    size_t copy = n - length < sizeof(value) - 1 ? n - length : sizeof(value) - 1;
    memcpy(value, data + length, copy);
    char *end = NULL;
    long seconds = strtol(value, &end, 10);
    while (end && (*end == ' ' || *end == '\r' || *end == '\n')) end++;
    if (end && *end == 0 && seconds >= 0) r->retry_after = seconds;
  }
  return n;
}

int mr_http_get(const char *url, const char *const *headers, size_t header_count, const char *ca_file,
                long timeout_seconds, size_t max_body, mr_http_response *out) {
  memset(out, 0, sizeof(*out));
  out->retry_after = -1;
  pthread_once(&mr_curl_once, mr_curl_init);
  CURL *curl = curl_easy_init();
  if (!curl) {
    snprintf(out->error, sizeof(out->error), "libcurl could not start a request");
    return -1;
  }
  struct curl_slist *list = NULL;
  for (size_t i = 0; i < header_count; i++) {
    struct curl_slist *grown = curl_slist_append(list, headers[i]);
    if (!grown) {
      curl_slist_free_all(list);
      curl_easy_cleanup(curl);
      snprintf(out->error, sizeof(out->error), "out of memory");
      return -1;
    }
    list = grown;
  }
  mr_body_sink sink = {out, 0, max_body, 0};
  curl_easy_setopt(curl, CURLOPT_URL, url);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "https");  // a bearer token never travels in clear
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
  if (ca_file) curl_easy_setopt(curl, CURLOPT_CAINFO, ca_file);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, timeout_seconds);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, timeout_seconds < 30 ? timeout_seconds : 30L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // gzip and deflate, decoded
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, mr_write_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, mr_read_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, out);
  CURLcode code = curl_easy_perform(curl);
  int status = 0;
  if (sink.over_limit) {
    snprintf(out->error, sizeof(out->error), "the response is larger than %zu bytes", max_body);
    status = -2;
  } else if (code != CURLE_OK) {
    snprintf(out->error, sizeof(out->error), "%s", curl_easy_strerror(code));
    status = -1;
  } else {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
    if (!out->body) {
      out->body = calloc(1, 1);
      if (!out->body) {
        snprintf(out->error, sizeof(out->error), "out of memory");
        status = -1;
      }
    }
  }
  curl_slist_free_all(list);
  curl_easy_cleanup(curl);
  return status;
}

void mr_http_response_free(mr_http_response *response) {
  free(response->body);
  response->body = NULL;
  response->body_length = 0;
}
