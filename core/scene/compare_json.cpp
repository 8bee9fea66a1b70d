#include "core/scene/compare_json.h"

namespace tetlab {

void readCompareSpec(JsonObject& root, CompareSpec& out) {
  std::optional<JsonObject> c = root.object("compare");
  if (!c) return;
  CompareSpec spec;
  if (const nlohmann::json* lanes = c->array("lanes")) {
    for (size_t i = 0; i < lanes->size(); ++i) {
      const std::string path = c->childPath("lanes") + "/" + std::to_string(i);
      if (!(*lanes)[i].is_string())
        JsonObject::fail(path, "expected a lane like \"vbd:10x4\", got " + JsonObject::describe((*lanes)[i]));
      Result<LaneSpec> lane = parseLaneSpec((*lanes)[i].get<std::string>());
      if (!lane) JsonObject::fail(path, lane.error().message);
      spec.lanes.push_back(*lane);
    }
  }
  std::string reference;
  c->read("reference", reference);
  if (reference == "auto") {
    spec.autoReference = true;
  } else if (!reference.empty()) {
    Result<LaneSpec> lane = parseLaneSpec(reference);
    if (!lane) JsonObject::fail(c->childPath("reference"), lane.error().message + " (or \"auto\")");
    spec.reference = *lane;
  }
  c->read("equal_cost_ms", spec.equalCostMs, NumberRange::closed(0.0, 60000.0));
  c->readEnum("view", spec.view, compareViewNames());
  c->finish();
  if (Status s = validateCompareSpec(spec); !s) JsonObject::fail(c->path(), s.error().message);
  out = std::move(spec);
}

void writeCompareSpec(const CompareSpec& spec, JsonOut& out) {
  if (!spec.active()) return;
  JsonOut c;
  JsonOut lanes = JsonOut::array();
  for (const LaneSpec& lane : spec.lanes) lanes.push_back(laneSpecText(lane));
  c["lanes"] = lanes;
  if (spec.autoReference) c["reference"] = "auto";
  else if (spec.reference) c["reference"] = laneSpecText(*spec.reference);
  c["equal_cost_ms"] = jsonFloat(spec.equalCostMs);
  c["view"] = enumName(compareViewNames(), spec.view);
  out["compare"] = c;
}

}  // namespace tetlab
