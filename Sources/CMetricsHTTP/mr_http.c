#include "mr_http.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

// libcurl is loaded on the first request, not linked: linking it brings in about thirty libraries
// the dynamic loader maps and relocates at every start of every command (about 5 ms, a fifth of a
// short run), for requests only App Store Connect fetches make. Its functions, found by name.
static struct {
  CURLcode (*global_init)(long flags);
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
  CURLcode (*easy_perform)(CURL *curl);
  CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
  void (*easy_cleanup)(CURL *curl);
  const char *(*easy_strerror)(CURLcode code);
  struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
  void (*slist_free_all)(struct curl_slist *list);
} mr_curl;
// Why libcurl could not be loaded; empty once it was.
static char mr_curl_failure[256];

// Loads libcurl and runs curl_global_init, which is not thread-safe, once, before the first handle.
static pthread_once_t mr_curl_once = PTHREAD_ONCE_INIT;
static void mr_curl_load(void) {
#ifdef __APPLE__
  static const char *const names[] = {"libcurl.4.dylib", "/usr/lib/libcurl.4.dylib"};
#else
  static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4"};
#endif
  void *library = NULL;
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !library; i++) {
    library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  }
  if (!library) {
    const char *why = dlerror();
    snprintf(mr_curl_failure, sizeof(mr_curl_failure), "libcurl could not be loaded: %s", why ? why : names[0]);
    return;
  }
#define MR_CURL_FIND(field, name)                                                                   \
  if (!(*(void **)&mr_curl.field = dlsym(library, name))) {                                         \
    snprintf(mr_curl_failure, sizeof(mr_curl_failure), "the libcurl found has no %s", name);       \
    return;                                                                                         \
  }
  MR_CURL_FIND(global_init, "curl_global_init")
  MR_CURL_FIND(easy_init, "curl_easy_init")
  MR_CURL_FIND(easy_setopt, "curl_easy_setopt")
  MR_CURL_FIND(easy_perform, "curl_easy_perform")
  MR_CURL_FIND(easy_getinfo, "curl_easy_getinfo")
  MR_CURL_FIND(easy_cleanup, "curl_easy_cleanup")
  MR_CURL_FIND(easy_strerror, "curl_easy_strerror")
  MR_CURL_FIND(slist_append, "curl_slist_append")
  MR_CURL_FIND(slist_free_all, "curl_slist_free_all")
#undef MR_CURL_FIND
  if (mr_curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    snprintf(mr_curl_failure, sizeof(mr_curl_failure), "libcurl could not be initialized");
  }
}

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

// One request: a GET when `body` is NULL, else a POST of `body_length` bytes; `protocols` is libcurl's
// list of the schemes the URL may have.
static int mr_http_perform(const char *url, const char *const *headers, size_t header_count, const char *body,
                           size_t body_length, const char *protocols, const char *ca_file, long timeout_seconds,
                           size_t max_body, mr_http_response *out) {
  memset(out, 0, sizeof(*out));
  out->retry_after = -1;
  pthread_once(&mr_curl_once, mr_curl_load);
  if (mr_curl_failure[0]) {
    snprintf(out->error, sizeof(out->error), "%s", mr_curl_failure);
    return -1;
  }
  CURL *curl = mr_curl.easy_init();
  if (!curl) {
    snprintf(out->error, sizeof(out->error), "libcurl could not start a request");
    return -1;
  }
  struct curl_slist *list = NULL;
  for (size_t i = 0; i < header_count; i++) {
    struct curl_slist *grown = mr_curl.slist_append(list, headers[i]);
    if (!grown) {
      mr_curl.slist_free_all(list);
      mr_curl.easy_cleanup(curl);
      snprintf(out->error, sizeof(out->error), "out of memory");
      return -1;
    }
    list = grown;
  }
  mr_body_sink sink = {out, 0, max_body, 0};
  mr_curl.easy_setopt(curl, CURLOPT_URL, url);
  mr_curl.easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  mr_curl.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  mr_curl.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, protocols);
  if (body) {
    mr_curl.easy_setopt(curl, CURLOPT_POST, 1L);
    mr_curl.easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    mr_curl.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
  }
  mr_curl.easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
  mr_curl.easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
  if (ca_file) mr_curl.easy_setopt(curl, CURLOPT_CAINFO, ca_file);
  mr_curl.easy_setopt(curl, CURLOPT_TIMEOUT, timeout_seconds);
  mr_curl.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, timeout_seconds < 30 ? timeout_seconds : 30L);
  mr_curl.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  mr_curl.easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // gzip and deflate, decoded
  mr_curl.easy_setopt(curl, CURLOPT_WRITEFUNCTION, mr_write_body);
  mr_curl.easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
  mr_curl.easy_setopt(curl, CURLOPT_HEADERFUNCTION, mr_read_header);
  mr_curl.easy_setopt(curl, CURLOPT_HEADERDATA, out);
  CURLcode code = mr_curl.easy_perform(curl);
  int status = 0;
  if (sink.over_limit) {
    snprintf(out->error, sizeof(out->error), "the response is larger than %zu bytes", max_body);
    status = -2;
  } else if (code != CURLE_OK) {
    snprintf(out->error, sizeof(out->error), "%s", mr_curl.easy_strerror(code));
    status = -1;
  } else {
    mr_curl.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
    if (!out->body) {
      out->body = calloc(1, 1);
      if (!out->body) {
        snprintf(out->error, sizeof(out->error), "out of memory");
        status = -1;
      }
    }
  }
  mr_curl.slist_free_all(list);
  mr_curl.easy_cleanup(curl);
  return status;
}

int mr_http_get(const char *url, const char *const *headers, size_t header_count, const char *ca_file,
                long timeout_seconds, size_t max_body, mr_http_response *out) {
  // A bearer token never travels in clear.
  return mr_http_perform(url, headers, header_count, NULL, 0, "https", ca_file, timeout_seconds, max_body, out);
}

int mr_http_post(const char *url, const char *const *headers, size_t header_count, const char *body,
                 size_t body_length, const char *ca_file, long timeout_seconds, size_t max_body,
                 mr_http_response *out) {
  return mr_http_perform(url, headers, header_count, body ? body : "", body_length, "http,https", ca_file,
                         timeout_seconds, max_body, out);
}

void mr_http_response_free(mr_http_response *response) {
  free(response->body);
  response->body = NULL;
  response->body_length = 0;
}
