// CMetricsJSON: see include/mr_json.h for why each function exists.
#include "mr_json.h"

#include <simdjson.h>

#include <new>

struct mr_json_parser {
  simdjson::dom::parser parser;
};

extern "C" mr_json_parser *mr_json_parser_create(size_t max_depth) {
  auto *p = new (std::nothrow) mr_json_parser();
  if (p == nullptr) return nullptr;
  if (p->parser.allocate(64 * 1024, max_depth) != simdjson::SUCCESS) {
    delete p;
    return nullptr;
  }
  return p;
}

extern "C" void mr_json_parser_destroy(mr_json_parser *parser) { delete parser; }

extern "C" size_t mr_json_padding(void) { return simdjson::SIMDJSON_PADDING; }

extern "C" int mr_json_parse(
  mr_json_parser *p, const char *bytes, size_t length, mr_json_document *document) {
  simdjson::dom::element root;
  // realloc_if_needed = false: the caller guarantees mr_json_padding() readable bytes after the end.
  auto error = p->parser.parse(reinterpret_cast<const uint8_t *>(bytes), length, false).get(root);
  if (error != simdjson::SUCCESS) return static_cast<int>(error);
  document->tape = p->parser.doc.tape.get();
  document->strings = p->parser.doc.string_buf.get();
  return 0;
}

extern "C" const char *mr_json_error_message(int code) {
  if (code < 0 || code >= simdjson::NUM_ERROR_CODES) return "unknown JSON error";
  return simdjson::error_message(static_cast<simdjson::error_code>(code));
}
