// Names, units and parse keys of the view modes and colour fields, one table
// each so the UI, the scene files and the CLI agree.
#include "app/render/view_modes.h"

#include <array>

namespace tetlab {

namespace {

struct ModeInfo {
  std::string_view name;
  std::string_view key;
};
constexpr std::array<ModeInfo, kViewModeCount> kModes{{
    {"Shaded", "shaded"},
    {"Tet wireframe", "wireframe"},
    {"Cut-away", "cutaway"},
}};

struct FieldInfo {
  std::string_view name;
  std::string_view key;
  std::string_view unit;
  FieldDomain domain;
  std::string_view tooltip;
};
constexpr std::array<FieldInfo, kColorFieldCount> kFields{{
    {"Material", "none", "", FieldDomain::kNone, "The body's own colour."},
    {"Vertex colour", "vertex-color", "", FieldDomain::kVertex,
     "Graph colour of each vertex: vertices of one colour share no tet, so VBD solves each colour in parallel."},
    {"Element colour", "element-color", "", FieldDomain::kTet,
     "Graph colour of each tet: tets of one colour share no vertex, so XPBD/PBD project each colour in parallel "
     "(the wireframe shows the edge colouring instead)."},
    {"Strain |E|", "strain", "", FieldDomain::kTet,
     "Frobenius norm of the Green strain E = (F^T F - I)/2 of each tet; 0 at rest, 0.1 is about 10% stretch."},
    {"Volume change", "volume", "", FieldDomain::kTet,
     "|det F - 1| of each tet: the relative change of its volume (0 = incompressible)."},
    {"Stress (von Mises)", "stress", "Pa", FieldDomain::kTet,
     "Von Mises equivalent of the Neo-Hookean Cauchy stress sigma = P F^T / J of each tet, in pascals."},
    {"Speed", "speed", "m/s", FieldDomain::kVertex, "|v| of each vertex, in metres per second."},
    {"Constraint error", "constraint-error", "m", FieldDomain::kVertex,
     "Largest |length - rest length| over the vertex's edges, or its penetration into a collider, in metres."},
}};

}  // namespace

std::string_view viewModeName(ViewMode mode) {
  const int i = static_cast<int>(mode);
  return i >= 0 && i < kViewModeCount ? kModes[size_t(i)].name : "?";
}
std::string_view viewModeKey(ViewMode mode) {
  const int i = static_cast<int>(mode);
  return i >= 0 && i < kViewModeCount ? kModes[size_t(i)].key : "?";
}
std::string_view colorFieldName(ColorField field) {
  const int i = static_cast<int>(field);
  return i >= 0 && i < kColorFieldCount ? kFields[size_t(i)].name : "?";
}
std::string_view colorFieldKey(ColorField field) {
  const int i = static_cast<int>(field);
  return i >= 0 && i < kColorFieldCount ? kFields[size_t(i)].key : "?";
}
std::string_view colorFieldUnit(ColorField field) {
  const int i = static_cast<int>(field);
  return i >= 0 && i < kColorFieldCount ? kFields[size_t(i)].unit : "";
}
std::string_view colorFieldTooltip(ColorField field) {
  const int i = static_cast<int>(field);
  return i >= 0 && i < kColorFieldCount ? kFields[size_t(i)].tooltip : "";
}
FieldDomain colorFieldDomain(ColorField field) {
  const int i = static_cast<int>(field);
  return i >= 0 && i < kColorFieldCount ? kFields[size_t(i)].domain : FieldDomain::kNone;
}
bool isCategorical(ColorField field) {
  return field == ColorField::kVertexColor || field == ColorField::kElementColor;
}

bool parseViewMode(std::string_view text, ViewMode& out) {
  for (int i = 0; i < kViewModeCount; ++i)
    if (kModes[size_t(i)].key == text) {
      out = static_cast<ViewMode>(i);
      return true;
    }
  return false;
}

bool parseColorField(std::string_view text, ColorField& out) {
  for (int i = 0; i < kColorFieldCount; ++i)
    if (kFields[size_t(i)].key == text) {
      out = static_cast<ColorField>(i);
      return true;
    }
  return false;
}

}  // namespace tetlab
