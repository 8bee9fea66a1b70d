#pragma once
// Reading hand-written JSON with messages a user can act on. Every value is
// read through a JsonObject that knows its JSON Pointer path (/bodies/0/material),
// checks the type and the allowed range, and at finish() rejects keys it did
// not read (a typo like "youngs" must not be silently ignored):
//
//   /bodies/0/material/poisson_ratio: must be >= 0 and < 0.5, got 0.7
//   /step: unknown key 'substep' (known here: dt, substeps, ...): fix the spelling or remove it
//
// Problems are thrown as JsonReadError and caught once at the top of the
// scene parser, which turns them into an Error naming the file (setup code
// only, never the step loop). Absent keys leave the output untouched, so
// struct defaults are the file's defaults.
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>

#include "core/scene/enum_names.h"

namespace tetlab {

struct JsonReadError {
  std::string path;     // JSON Pointer of the offending value ("" = the document)
  std::string message;  // what is wrong and, where useful, what to write instead
};

// Allowed interval of a number; open ends exclude the bound.
struct NumberRange {
  double min = -1e300, max = 1e300;
  bool minOpen = false, maxOpen = false;
  static NumberRange positive() { return {0.0, 1e300, true, false}; }
  static NumberRange nonNegative() { return {0.0, 1e300, false, false}; }
  static NumberRange closed(double lo, double hi) { return {lo, hi, false, false}; }
  static NumberRange any() { return {}; }
};

class JsonObject {
 public:
  // Throws JsonReadError when j is not an object.
  JsonObject(const nlohmann::json& j, std::string path);

  const std::string& path() const { return path_; }
  std::string childPath(std::string_view key) const;
  bool has(const char* key) const { return j_.contains(key); }
  // The raw child (marked as read), or nullptr when absent.
  const nlohmann::json* find(const char* key);

  void read(const char* key, float& out, NumberRange range = NumberRange::any());
  void read(const char* key, double& out, NumberRange range = NumberRange::any());
  void read(const char* key, int& out, int min, int max);
  void read(const char* key, uint32_t& out, uint32_t min, uint32_t max);
  void read(const char* key, uint64_t& out);
  void read(const char* key, bool& out);
  void read(const char* key, std::string& out);
  void read(const char* key, glm::vec2& out, NumberRange range = NumberRange::any());
  void read(const char* key, glm::vec3& out, NumberRange range = NumberRange::any());
  void read(const char* key, glm::uvec2& out, uint32_t min, uint32_t max);
  void read(const char* key, glm::uvec3& out, uint32_t min, uint32_t max);
  void read(const char* key, std::vector<uint32_t>& out);
  void read(const char* key, std::vector<float>& out, NumberRange range = NumberRange::any());

  template <class E>
  void readEnum(const char* key, E& out, std::span<const EnumName<E>> names) {
    const nlohmann::json* v = find(key);
    if (!v) return;
    if (!v->is_string()) fail(childPath(key), "expected a name (" + enumNameList(names) + "), got " + describe(*v));
    const std::string text = v->get<std::string>();
    std::optional<E> parsed = parseEnumName(names, text);
    if (!parsed) fail(childPath(key), "unknown value '" + text + "': use " + enumNameList(names));
    out = *parsed;
  }

  // Child object / array (nullopt / nullptr when absent); type errors throw.
  std::optional<JsonObject> object(const char* key);
  const nlohmann::json* array(const char* key);

  // Throws on keys that were never read.
  void finish() const;

  [[noreturn]] static void fail(std::string path, std::string message);
  static std::string describe(const nlohmann::json& v);  // "a string \"abc\"", "the number 3", ...

 private:
  const nlohmann::json& j_;
  std::string path_;
  std::set<std::string> read_;   // keys present and read
  std::set<std::string> asked_;  // every key this reader knows (asked for, present or not)
};

// A float as the shortest decimal that reads back to the same float, so saved
// files say 0.016666668 rather than 0.01666666753590107 and still round-trip exactly.
// Written documents keep their keys in insertion order (name first, details later).
using JsonOut = nlohmann::ordered_json;
double jsonFloat(float value);
JsonOut jsonVec2(glm::vec2 v);
JsonOut jsonUvec2(glm::uvec2 v);
JsonOut jsonVec3(glm::vec3 v);
JsonOut jsonUvec3(glm::uvec3 v);

// Indented JSON for people: objects one key per line, arrays of numbers (and
// of short number arrays, like a rotation's rows) on one line.
std::string prettyJson(const JsonOut& value);

}  // namespace tetlab
