#pragma once
// Which edges of the model are mass springs, from two user toggles
// (ConstraintToggles, core/sim/step_settings.h):
//   solidEdges     the "edges" toggle adds springs to the solids' edges;
//   clothMembrane  the "membrane" toggle gives a cloth its triangle membrane
//                  (core/model/cloth_membrane.h) instead of edge springs.
// A strand's segments are always springs. Every cache of per-edge stiffness
// or per-body constants keys on this pair (body_constants.h).
namespace tetlab {

struct SpringChoice {
  bool solidEdges = false;
  bool clothMembrane = false;
  bool operator==(const SpringChoice&) const = default;
};

}  // namespace tetlab
