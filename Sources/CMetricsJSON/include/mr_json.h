// CMetricsJSON: a C interface over simdjson (Debian's libsimdjson-dev), the validating, fuzzed JSON
// parser that decodes payloads fast enough (Foundation's decoders manage a tenth of the speed).
//
// A parsed document is handed to Swift as simdjson's own tape: an array of 64-bit words in document
// order, the format simdjson documents in doc/tape.md and uses internally. Swift walks it in place —
// no copy, no call across the language boundary per value — so depth is bounded only by the parser's
// configured maximum, never by a stack. The constants below are that format.
#ifndef MR_JSON_H
#define MR_JSON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Tape word types: the top 8 bits of a word, as ASCII characters.
enum {
  MR_TAPE_ROOT = 'r',
  MR_TAPE_START_ARRAY = '[',
  MR_TAPE_END_ARRAY = ']',
  MR_TAPE_START_OBJECT = '{',
  MR_TAPE_END_OBJECT = '}',
  MR_TAPE_STRING = '"',
  MR_TAPE_INT64 = 'l',
  MR_TAPE_UINT64 = 'u',
  MR_TAPE_DOUBLE = 'd',
  MR_TAPE_TRUE = 't',
  MR_TAPE_FALSE = 'f',
  MR_TAPE_NULL = 'n',
};

/// A parsed document: `tape[0]` is the root word and the root value starts at `tape[1]`.
/// - `[` and `{` words: the low 32 bits are the index one past the matching close word, bits 32–55
///   the number of elements or members (saturated at 0xFFFFFF).
/// - `"` words: the low 56 bits are an offset into `strings`, where a little-endian uint32 length is
///   followed by the UTF-8 bytes. Object members are a string word (the key) followed by the value.
/// - `l`, `u`, `d` words: the next word holds the int64, uint64 or double bits.
/// Valid until the next mr_json_parse on the same parser.
typedef struct mr_json_document {
  const uint64_t *tape;
  const uint8_t *strings;
} mr_json_document;

typedef struct mr_json_parser mr_json_parser;

/// Why: the parser owns simdjson's buffers, reused from document to document (one parser per
/// thread). `max_depth` bounds nesting (arrays and objects); simdjson's default is 1024.
mr_json_parser *mr_json_parser_create(size_t max_depth);

/// Why: frees what mr_json_parser_create allocated.
void mr_json_parser_destroy(mr_json_parser *parser);

/// Why: simdjson reads up to this many bytes past the end of a document; buffers handed to
/// mr_json_parse must have them readable.
size_t mr_json_padding(void);

/// Why: parses and validates one document. Returns 0 on success, else a simdjson error code (see
/// mr_json_error_message); on success `*document` describes it until the next call.
int mr_json_parse(mr_json_parser *parser, const char *bytes, size_t length, mr_json_document *document);

/// Why: a human-readable text for an error code from mr_json_parse. Never NULL; static storage.
const char *mr_json_error_message(int code);

#ifdef __cplusplus
}
#endif

#endif
