#include "core/scene/json_reader.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace tetlab {

namespace {

std::string formatNumber(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string describeRange(const NumberRange& r) {
  const bool hasMin = r.min > -1e299, hasMax = r.max < 1e299;
  std::string out;
  if (hasMin) out += std::string(r.minOpen ? "> " : ">= ") + formatNumber(r.min);
  if (hasMin && hasMax) out += " and ";
  if (hasMax) out += std::string(r.maxOpen ? "< " : "<= ") + formatNumber(r.max);
  return out.empty() ? "finite" : out;
}

bool inRange(double v, const NumberRange& r) {
  if (!std::isfinite(v)) return false;
  if (r.minOpen ? !(v > r.min) : !(v >= r.min)) return false;
  if (r.maxOpen ? !(v < r.max) : !(v <= r.max)) return false;
  return true;
}

// JSON Pointer escaping (RFC 6901): ~ -> ~0, / -> ~1.
std::string escapeKey(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

double readNumberValue(const nlohmann::json& v, const std::string& path, const NumberRange& range) {
  if (!v.is_number()) JsonObject::fail(path, "expected a number, got " + JsonObject::describe(v));
  const double d = v.get<double>();
  if (!inRange(d, range)) JsonObject::fail(path, "must be " + describeRange(range) + ", got " + formatNumber(d));
  return d;
}

int64_t readIntegerValue(const nlohmann::json& v, const std::string& path, int64_t min, int64_t max) {
  if (!v.is_number_integer())
    JsonObject::fail(path, "expected a whole number, got " + JsonObject::describe(v));
  int64_t i = 0;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    i = u > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(u);
  } else {
    i = v.get<int64_t>();
  }
  if (i < min || i > max)
    JsonObject::fail(path, "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
                               std::to_string(i));
  return i;
}

}  // namespace

JsonObject::JsonObject(const nlohmann::json& j, std::string path) : j_(j), path_(std::move(path)) {
  if (!j.is_object()) fail(path_, "expected an object { ... }, got " + describe(j));
}

std::string JsonObject::childPath(std::string_view key) const { return path_ + "/" + escapeKey(key); }

const nlohmann::json* JsonObject::find(const char* key) {
  asked_.insert(key);
  auto it = j_.find(key);
  if (it == j_.end()) return nullptr;
  read_.insert(key);
  return &*it;
}

void JsonObject::fail(std::string path, std::string message) {
  throw JsonReadError{std::move(path), std::move(message)};
}

std::string JsonObject::describe(const nlohmann::json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return std::string("the boolean ") + (v.get<bool>() ? "true" : "false");
  if (v.is_number()) return "the number " + v.dump();
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s.size() > 40) s = s.substr(0, 40) + "...";
    return "the string \"" + s + "\"";
  }
  if (v.is_array()) return "an array of " + std::to_string(v.size());
  return "an object";
}

namespace {

// Every digit of v (ostream's 6 would print 0.49999999999 as 0.5).
std::string exactNumber(double v) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), v);
  return std::string(buffer, result.ptr);
}

// A number the simulation stores as float: beyond its range it would become inf.
// Rounded to float it must still be in range, or a scene saved from it would
// not load again (0.49999999999 is 0.5 as a float, 1e-50 is 0).
float readFloatValue(const nlohmann::json& v, const std::string& path, NumberRange range) {
  const double d = readNumberValue(v, path, range);
  if (std::fabs(d) > 3.0e38) JsonObject::fail(path, "is too large for a 32-bit float: " + formatNumber(d));
  const float f = float(d);
  if (!inRange(double(f), range))
    JsonObject::fail(path, "must be " + describeRange(range) + ", got " + exactNumber(d) +
                               ", which a 32-bit float stores as " + exactNumber(double(f)));
  return f;
}

}  // namespace

void JsonObject::read(const char* key, float& out, NumberRange range) {
  if (const nlohmann::json* v = find(key)) out = readFloatValue(*v, childPath(key), range);
}

void JsonObject::read(const char* key, double& out, NumberRange range) {
  if (const nlohmann::json* v = find(key)) out = readNumberValue(*v, childPath(key), range);
}

void JsonObject::read(const char* key, int& out, int min, int max) {
  if (const nlohmann::json* v = find(key)) out = int(readIntegerValue(*v, childPath(key), min, max));
}

void JsonObject::read(const char* key, uint32_t& out, uint32_t min, uint32_t max) {
  if (const nlohmann::json* v = find(key)) out = uint32_t(readIntegerValue(*v, childPath(key), min, max));
}

void JsonObject::read(const char* key, uint64_t& out) {
  const nlohmann::json* v = find(key);
  if (!v) return;
  if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<int64_t>() >= 0))
    fail(childPath(key), "expected a whole number >= 0, got " + describe(*v));
  out = v->get<uint64_t>();
}

void JsonObject::read(const char* key, bool& out) {
  const nlohmann::json* v = find(key);
  if (!v) return;
  if (!v->is_boolean()) fail(childPath(key), "expected true or false, got " + describe(*v));
  out = v->get<bool>();
}

void JsonObject::read(const char* key, std::string& out) {
  const nlohmann::json* v = find(key);
  if (!v) return;
  if (!v->is_string()) fail(childPath(key), "expected a string in quotes, got " + describe(*v));
  out = v->get<std::string>();
}

void JsonObject::read(const char* key, glm::vec2& out, NumberRange range) {
  const nlohmann::json* v = find(key);
  if (!v) return;
  const std::string path = childPath(key);
  if (!v->is_array() || v->size() != 2) fail(path, "expected [a, b] (2 numbers), got " + describe(*v));
  glm::vec2 r;
  for (int i = 0; i < 2; ++i) r[i] = readFloatValue((*v)[size_t(i)], path + "/" + std::to_string(i), range);
  out = r;
}

void JsonObject::read(const char* key, glm::uvec2& out, uint32_t min, uint32_t max) {
  const nlohmann::json* v = find(key);
  if (!v) return;
  const std::string path = childPath(key);
  if (!v->is_array() || v->size() != 2) fail(path, "expected [na, nb] (2 whole numbers), got " + describe(*v));
  glm::uvec2 r;
  for (int i = 0; i < 2; ++i)
    r[i] = uint32_t(readIntegerValue((*v)[size_t(i)], path + "/" + std::to_string(i), min, max));
  out = r;
}

void JsonObject::read(const char* key, glm::vec3& out, NumberRange range) {
  const nlohmann::json* v = find(key);
  if (!v) return;
  const std::string path = childPath(key);
  if (!v->is_array() || v->size() != 3) fail(path, "expected [x, y, z] (3 numbers), got " + describe(*v));
  glm::vec3 r;
  for (int i = 0; i < 3; ++i) r[i] = readFloatValue((*v)[size_t(i)], path + "/" + std::to_string(i), range);
  out = r;
}

void JsonObject::read(const char* key, glm::uvec3& out, uint32_t min, uint32_t max) {
  const nlohmann::json* v = find(key);
  if (!v) return;
  const std::string path = childPath(key);
  if (!v->is_array() || v->size() != 3) fail(path, "expected [nx, ny, nz] (3 whole numbers), got " + describe(*v));
  glm::uvec3 r;
  for (int i = 0; i < 3; ++i)
    r[i] = uint32_t(readIntegerValue((*v)[size_t(i)], path + "/" + std::to_string(i), min, max));
  out = r;
}

void JsonObject::read(const char* key, std::vector<uint32_t>& out) {
  const nlohmann::json* v = find(key);
  if (!v) return;
  const std::string path = childPath(key);
  if (!v->is_array()) fail(path, "expected an array of vertex ids, got " + describe(*v));
  std::vector<uint32_t> r;
  r.reserve(v->size());
  for (size_t i = 0; i < v->size(); ++i)
    r.push_back(uint32_t(readIntegerValue((*v)[i], path + "/" + std::to_string(i), 0, UINT32_MAX)));
  out = std::move(r);
}

void JsonObject::read(const char* key, std::vector<float>& out, NumberRange range) {
  const nlohmann::json* v = find(key);
  if (!v) return;
  const std::string path = childPath(key);
  if (!v->is_array()) fail(path, "expected an array of numbers, got " + describe(*v));
  std::vector<float> r;
  r.reserve(v->size());
  for (size_t i = 0; i < v->size(); ++i) r.push_back(readFloatValue((*v)[i], path + "/" + std::to_string(i), range));
  out = std::move(r);
}

std::optional<JsonObject> JsonObject::object(const char* key) {
  const nlohmann::json* v = find(key);
  if (!v) return std::nullopt;
  return JsonObject(*v, childPath(key));
}

const nlohmann::json* JsonObject::array(const char* key) {
  const nlohmann::json* v = find(key);
  if (v && !v->is_array()) fail(childPath(key), "expected an array [ ... ], got " + describe(*v));
  return v;
}

void JsonObject::finish() const {
  for (auto it = j_.begin(); it != j_.end(); ++it) {
    if (read_.count(it.key())) continue;
    std::string known;
    for (const std::string& k : asked_) known += (known.empty() ? "" : ", ") + k;
    fail(childPath(it.key()), "unknown key '" + it.key() + "'" +
                                  (known.empty() ? "" : " (known here: " + known + ")") +
                                  ": fix the spelling or remove it");
  }
}

double jsonFloat(float value) {
  if (!std::isfinite(value)) return double(value);
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  *result.ptr = '\0';
  return std::strtod(buffer, nullptr);
}

JsonOut jsonVec2(glm::vec2 v) { return JsonOut::array({jsonFloat(v.x), jsonFloat(v.y)}); }
JsonOut jsonUvec2(glm::uvec2 v) { return JsonOut::array({v.x, v.y}); }
JsonOut jsonVec3(glm::vec3 v) { return JsonOut::array({jsonFloat(v.x), jsonFloat(v.y), jsonFloat(v.z)}); }
JsonOut jsonUvec3(glm::uvec3 v) { return JsonOut::array({v.x, v.y, v.z}); }

namespace {

bool isScalar(const JsonOut& v) { return !v.is_object() && !v.is_array(); }

bool fitsOnOneLine(const JsonOut& array) {
  for (const JsonOut& e : array) {
    if (isScalar(e)) continue;
    if (!e.is_array() || e.size() > 4) return false;
    for (const JsonOut& x : e)
      if (!isScalar(x)) return false;
  }
  return array.dump().size() <= 100;
}

void appendPretty(const JsonOut& v, int indent, std::string& out) {
  const std::string pad(size_t(indent + 2), ' ');
  if (v.is_object() && !v.empty()) {
    out += "{\n";
    size_t i = 0;
    for (auto it = v.begin(); it != v.end(); ++it, ++i) {
      out += pad + JsonOut(it.key()).dump() + ": ";
      appendPretty(it.value(), indent + 2, out);
      out += i + 1 < v.size() ? ",\n" : "\n";
    }
    out += std::string(size_t(indent), ' ') + "}";
  } else if (v.is_array() && !v.empty() && !fitsOnOneLine(v)) {
    out += "[\n";
    for (size_t i = 0; i < v.size(); ++i) {
      out += pad;
      appendPretty(v[i], indent + 2, out);
      out += i + 1 < v.size() ? ",\n" : "\n";
    }
    out += std::string(size_t(indent), ' ') + "]";
  } else if (v.is_array()) {
    out += "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i].dump();
    out += "]";
  } else {
    out += v.dump();
  }
}

}  // namespace

std::string prettyJson(const JsonOut& value) {
  std::string out;
  appendPretty(value, 0, out);
  out += "\n";
  return out;
}

}  // namespace tetlab
