// CMetricsJSON: see include/mr_json.h for why each function exists.
#include "mr_json.h"

#include <simdjson.h>

#include <limits>
#include <new>
#include <vector>

using simdjson::dom::element;
using simdjson::dom::element_type;

namespace {

// A code for documents larger than the node array can index (beyond simdjson's own codes).
constexpr int mr_too_many_values = 1000;

struct Frame {
  bool is_object;
  simdjson::dom::object::iterator object_next, object_end;
  simdjson::dom::array::iterator array_next, array_end;
  uint32_t node;
};

}  // namespace

struct mr_json_parser {
  simdjson::dom::parser parser;
  std::vector<mr_json_node> nodes;
  std::vector<Frame> stack;
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

static bool mr_append(mr_json_parser *p, element value, const char *key, uint32_t key_length) {
  if (p->nodes.size() >= std::numeric_limits<uint32_t>::max() - 1) return false;
  mr_json_node node{};
  node.key = key;
  node.key_length = key_length;
  const uint32_t index = static_cast<uint32_t>(p->nodes.size());
  switch (value.type()) {
    case element_type::NULL_VALUE:
      node.kind = MR_JSON_NULL;
      break;
    case element_type::BOOL:
      node.kind = value.get_bool().value_unsafe() ? MR_JSON_TRUE : MR_JSON_FALSE;
      break;
    case element_type::INT64:
      node.kind = MR_JSON_INT64;
      node.number.int64 = value.get_int64().value_unsafe();
      break;
    case element_type::UINT64:
      node.kind = MR_JSON_UINT64;
      node.number.uint64 = value.get_uint64().value_unsafe();
      break;
    case element_type::DOUBLE:
      node.kind = MR_JSON_DOUBLE;
      node.number.float64 = value.get_double().value_unsafe();
      break;
    case element_type::STRING: {
      std::string_view s = value.get_string().value_unsafe();
      if (s.size() > std::numeric_limits<uint32_t>::max()) return false;
      node.kind = MR_JSON_STRING;
      node.string = s.data();
      node.string_length = static_cast<uint32_t>(s.size());
      break;
    }
    case element_type::ARRAY: {
      node.kind = MR_JSON_ARRAY;
      simdjson::dom::array a = value.get_array().value_unsafe();
      Frame f{};
      f.is_object = false;
      f.array_next = a.begin();
      f.array_end = a.end();
      f.node = index;
      p->stack.push_back(f);
      break;
    }
    case element_type::OBJECT: {
      node.kind = MR_JSON_OBJECT;
      simdjson::dom::object o = value.get_object().value_unsafe();
      Frame f{};
      f.is_object = true;
      f.object_next = o.begin();
      f.object_end = o.end();
      f.node = index;
      p->stack.push_back(f);
      break;
    }
  }
  node.end = index + 1;
  p->nodes.push_back(node);
  return true;
}

extern "C" int mr_json_parse(
  mr_json_parser *p, const char *bytes, size_t length, const mr_json_node **nodes, size_t *count) {
  p->nodes.clear();
  p->stack.clear();
  element root;
  // realloc_if_needed = false: the caller guarantees mr_json_padding() readable bytes after the end.
  auto error = p->parser.parse(reinterpret_cast<const uint8_t *>(bytes), length, false).get(root);
  if (error != simdjson::SUCCESS) return static_cast<int>(error);
  if (!mr_append(p, root, nullptr, 0)) return mr_too_many_values;
  while (!p->stack.empty()) {
    Frame &top = p->stack.back();
    const uint32_t parent = top.node;
    if (top.is_object ? top.object_next == top.object_end : top.array_next == top.array_end) {
      p->nodes[parent].end = static_cast<uint32_t>(p->nodes.size());
      p->stack.pop_back();
      continue;
    }
    p->nodes[parent].count += 1;
    bool appended;
    if (top.is_object) {
      auto it = top.object_next;
      ++top.object_next;  // advance before mr_append, which may grow the stack and move `top`
      std::string_view key = it.key();
      appended = mr_append(p, it.value(), key.data(), static_cast<uint32_t>(key.size()));
    } else {
      auto it = top.array_next;
      ++top.array_next;
      appended = mr_append(p, *it, nullptr, 0);
    }
    if (!appended) return mr_too_many_values;
  }
  *nodes = p->nodes.data();
  *count = p->nodes.size();
  return 0;
}

extern "C" const char *mr_json_error_message(int code) {
  if (code == mr_too_many_values) return "document has too many values";
  if (code < 0 || code >= simdjson::NUM_ERROR_CODES) return "unknown JSON error";
  return simdjson::error_message(static_cast<simdjson::error_code>(code));
}
