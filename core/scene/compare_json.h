#pragma once
// The "compare" section of a scene file (core/scene/compare_spec.h):
//
//   "compare": {"lanes": ["xpbd:20x1", "vbd:10x4@opencl"], "reference": "vbd:20x8" | "auto",
//               "equal_cost_ms": 5, "view": "split" | "overlay"}
//
// Absent: not comparing. Lanes use the CLI's spelling (parseLaneSpec), so a
// comparison set up in the window and saved reruns with `tetlab compare --scene FILE`.
#include "core/scene/compare_spec.h"
#include "core/scene/json_reader.h"

namespace tetlab {

// Throws JsonReadError (path and message) like every scene reader.
void readCompareSpec(JsonObject& root, CompareSpec& out);
// Writes nothing when the spec is not active.
void writeCompareSpec(const CompareSpec& spec, JsonOut& out);

}  // namespace tetlab
