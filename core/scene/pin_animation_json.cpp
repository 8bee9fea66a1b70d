#include "core/scene/pin_animation_json.h"

#include <algorithm>

namespace tetlab {
namespace {

constexpr EnumName<KeyInterpolation> kInterpolations[] = {{KeyInterpolation::Linear, "linear"},
                                                          {KeyInterpolation::Smooth, "smooth"}};

}  // namespace

void readPinAnimation(JsonObject& region, PinAnimation& out) {
  if (const nlohmann::json* keys = region.array("keys")) {
    for (size_t i = 0; i < keys->size(); ++i) {
      JsonObject k((*keys)[i], region.childPath("keys") + "/" + std::to_string(i));
      PinKey key;
      k.read("time", key.time, NumberRange::closed(0.0, 1e6));
      k.read("translate", key.translate, NumberRange::closed(-1e4, 1e4));
      k.read("rotate_deg", key.rotateDegrees, NumberRange::closed(-1e5, 1e5));
      k.finish();
      out.keys.push_back(key);
    }
    std::stable_sort(out.keys.begin(), out.keys.end(), [](const PinKey& a, const PinKey& b) { return a.time < b.time; });
    for (size_t i = 1; i < out.keys.size(); ++i)
      if (out.keys[i].time == out.keys[i - 1].time)
        JsonObject::fail(region.childPath("keys"), "two keys at t = " + std::to_string(out.keys[i].time) +
                                                       " s: give each key its own time");
  }
  region.readEnum("interpolation", out.interpolation, std::span<const EnumName<KeyInterpolation>>(kInterpolations));
  if (region.has("pivot")) {
    out.pivotSet = true;
    region.read("pivot", out.pivot);
  }
  region.read("release_at", out.releaseAt, NumberRange::closed(0.0, 1e6));
  if (region.has("toggle_at")) {
    region.read("toggle_at", out.toggleAt, NumberRange::closed(0.0, 1e6));
    for (size_t i = 1; i < out.toggleAt.size(); ++i)
      if (!(out.toggleAt[i] > out.toggleAt[i - 1]))
        JsonObject::fail(region.childPath("toggle_at"),
                         "toggle times must rise: " + std::to_string(out.toggleAt[i]) + " s after " +
                             std::to_string(out.toggleAt[i - 1]) + " s (the pins flip held/free at each)");
  }
}

void writePinAnimation(const PinAnimation& a, JsonOut& region) {
  if (!a.active()) return;
  if (!a.keys.empty()) {
    JsonOut keys = JsonOut::array();
    for (const PinKey& k : a.keys)
      keys.push_back({{"time", jsonFloat(k.time)},
                      {"translate", jsonVec3(k.translate)},
                      {"rotate_deg", jsonVec3(k.rotateDegrees)}});
    region["keys"] = keys;
    region["interpolation"] = enumName(std::span<const EnumName<KeyInterpolation>>(kInterpolations), a.interpolation);
  }
  if (a.pivotSet) region["pivot"] = jsonVec3(a.pivot);
  if (a.releaseAt >= 0.0f) region["release_at"] = jsonFloat(a.releaseAt);
  if (!a.toggleAt.empty()) {
    JsonOut times = JsonOut::array();
    for (float t : a.toggleAt) times.push_back(jsonFloat(t));
    region["toggle_at"] = times;
  }
}

}  // namespace tetlab
