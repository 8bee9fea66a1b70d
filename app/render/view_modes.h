#pragma once
// What the 3D view shows, as one plain struct the UI panel, scene files and
// the CLI edit. Two independent choices:
//
//   geometry  (ViewMode)    shaded embedded surface | tet wireframe | cut-away section
//   colour    (ColorField)  none | vertex/element graph colour | strain | volume change |
//                           stress | speed | constraint error
//
// so every field can be looked at on the smooth render surface, on the edges
// or inside the body through the section. Per-tet magnitudes reach the smooth
// surface as volume-weighted vertex averages; graph colours are properties of
// the tet mesh, so the shaded mode shows them on the tet mesh's own boundary
// faces (and the wireframe colours edges by the edge colouring). Overlays (pins, colliders, the
// mouse attachment line) are switched on their own.
#include <cstdint>
#include <string_view>

#include <glm/vec3.hpp>

namespace tetlab {

enum class ViewMode : int {
  kShaded = 0,     // the embedded render surface (what the user loaded), lit
  kWireframe = 1,  // every SimModel edge as a line from the current positions, over a faint surface
  kCutaway = 2,    // tets on the kept side of a plane, shrunk towards their centroids; the rest removed
};
inline constexpr int kViewModeCount = 3;

enum class ColorField : int {
  kNone = 0,             // material colour
  kVertexColor = 1,      // vertex graph colour (VBD's parallel sets), categorical, per vertex
  kElementColor = 2,     // tet graph colour (XPBD/PBD's parallel sets), categorical, per tet
  kStrain = 3,           // Frobenius norm of Green strain |E|_F, E = (F^T F - I) / 2 [-], per tet
  kVolumeChange = 4,     // |det F - 1| [-], per tet
  kStress = 5,           // von Mises of the Neo-Hookean Cauchy stress [Pa], per tet
  kSpeed = 6,            // |v| [m/s], per vertex
  kConstraintError = 7,  // max over a vertex's edges of |l - L| and its collider penetration depth [m], per vertex
};
inline constexpr int kColorFieldCount = 8;

// Where a field's values live before they are drawn.
enum class FieldDomain { kNone, kVertex, kTet };

// Short UI names ("Shaded", "Tet wireframe", "Cut-away"; "Strain |E|", ...).
std::string_view viewModeName(ViewMode mode);
std::string_view colorFieldName(ColorField field);
// Unit for the legend ("", "m/s", "Pa", "m"); empty for dimensionless or categorical fields.
std::string_view colorFieldUnit(ColorField field);
// One sentence for the UI tooltip: what the field is and how it is computed.
std::string_view colorFieldTooltip(ColorField field);
FieldDomain colorFieldDomain(ColorField field);
// Graph colours are categories (palette), every other field is a magnitude (colour map).
bool isCategorical(ColorField field);

// Parses the names used by scene files / CLI ("shaded", "wireframe", "cutaway"; "none",
// "vertex-color", "element-color", "strain", "volume", "stress", "speed", "constraint-error").
// Returns false (and leaves out untouched) on an unknown name.
bool parseViewMode(std::string_view text, ViewMode& out);
bool parseColorField(std::string_view text, ColorField& out);
std::string_view viewModeKey(ViewMode mode);      // the parse name
std::string_view colorFieldKey(ColorField field);  // the parse name

struct ViewSettings {
  ViewMode mode = ViewMode::kShaded;
  ColorField field = ColorField::kNone;

  // Colour-map range. autoRange: [0, the rangePercentile-th percentile of the values
  // on screen] for magnitudes, smoothed over frames so the colours do not flicker
  // (a percentile, not the max, so one thin flapping ear or one inverted tet does
  // not turn everything else dark); else [rangeMin, rangeMax].
  bool autoRange = true;
  float rangePercentile = 98.0f;  // [%] 100 = the maximum
  float rangeMin = 0.0f;
  float rangeMax = 1.0f;

  // Cut-away: keep tets whose centroid c has dot(cutNormal, c - centre) <= cutOffset * radius,
  // where centre/radius are the current bounding sphere of the body, so cutOffset in
  // [-1, 1] sweeps the plane through the whole body whatever its size.
  glm::vec3 cutNormal{0.0f, 0.0f, 1.0f};  // need not be unit; zero falls back to +z
  float cutOffset = 0.0f;                 // [-] fraction of the bounding radius
  float tetShrink = 0.8f;                 // cut-away: each tet scaled about its centroid (1 = solid)
  bool cutShowSurface = true;             // cut-away: also draw the render surface clipped by the plane
  int cutLayers = 3;                      // cut-away: tet layers drawn below the exposed surface (0 = all;
                                          // deeper ones only show through the shrink gaps)

  // Wireframe: opacity of the edges and of the ghost surface under them.
  float wireOpacity = 0.4f;      // [0, 1], at the near side (the far side fades to a quarter)
  float ghostOpacity = 0.25f;    // [0, 1], 0 hides the surface

  bool showPins = true;          // pinned (w = 0) vertices as red spheres
  bool showColliders = true;     // sphere/box/capsule colliders
  bool showSprings = true;       // anchor springs: lines coloured by load (blue .. red = breaking), anchors as points
  bool showAttachment = true;    // the mouse drag as a line from the grabbed point to the cursor target
  float pinRadius = 0.0f;        // [m] sphere radius; 0 = automatic (0.8 % of the scene size)
};

}  // namespace tetlab
