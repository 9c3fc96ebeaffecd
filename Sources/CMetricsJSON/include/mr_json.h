// CMetricsJSON: a C interface over simdjson (Debian's libsimdjson-dev), the validating, fuzzed JSON
// parser that decodes payloads fast enough (Foundation's decoders manage a tenth of the speed).
//
// One call parses a document and flattens it into an array of nodes in document order, so that Swift
// walks plain memory instead of calling across the language boundary per value. The flattening is
// iterative: depth is bounded only by the parser's configured maximum, never by a stack.
#ifndef MR_JSON_H
#define MR_JSON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The kind of a flattened JSON value.
enum {
  MR_JSON_NULL = 0,
  MR_JSON_FALSE = 1,
  MR_JSON_TRUE = 2,
  MR_JSON_INT64 = 3,
  MR_JSON_UINT64 = 4,
  MR_JSON_DOUBLE = 5,
  MR_JSON_STRING = 6,
  MR_JSON_ARRAY = 7,
  MR_JSON_OBJECT = 8,
};

/// One value of a parsed document. Containers are followed by their children; `end` is the index one
/// past the container's last descendant, so a sibling is found without walking the subtree.
typedef struct mr_json_node {
  /// The member name when the parent is an object, else NULL. Valid until the next parse.
  const char *key;
  /// UTF-8 bytes of a string value, else NULL. Valid until the next parse.
  const char *string;
  /// The value of an INT64, UINT64 or DOUBLE node.
  union {
    int64_t int64;
    uint64_t uint64;
    double float64;
  } number;
  uint32_t key_length;
  uint32_t string_length;
  /// Index one past the last node of this value's subtree.
  uint32_t end;
  /// Number of direct children of a container.
  uint32_t count;
  uint8_t kind;
} mr_json_node;

typedef struct mr_json_parser mr_json_parser;

/// Why: the parser owns simdjson's buffers and the node array; reusing one per thread avoids an
/// allocation per document. `max_depth` bounds nesting (arrays and objects); simdjson's default is 1024.
mr_json_parser *mr_json_parser_create(size_t max_depth);

/// Why: frees what mr_json_parser_create allocated.
void mr_json_parser_destroy(mr_json_parser *parser);

/// Why: simdjson reads up to this many bytes past the end of a document; buffers handed to
/// mr_json_parse must have them readable.
size_t mr_json_padding(void);

/// Why: parses and flattens one document. Returns 0 on success, else a simdjson error code (see
/// mr_json_error_message). On success `*nodes` and `*count` describe the document until the next call.
int mr_json_parse(
  mr_json_parser *parser, const char *bytes, size_t length, const mr_json_node **nodes, size_t *count);

/// Why: a human-readable text for an error code from mr_json_parse. Never NULL; static storage.
const char *mr_json_error_message(int code);

#ifdef __cplusplus
}
#endif

#endif
