#pragma once
// The colours fields are drawn with, defined once on the CPU: the renderer
// uploads these same tables as shader uniforms and the legend samples them,
// so the legend always matches the picture.
//
//   magnitudes  sequential map (dark violet -> blue -> green -> yellow, the
//               look of matplotlib's CC0 "viridis"; key colours sampled by hand,
//               linear in between), low = dark so high strain/stress pops out
//   categories  a palette for graph colours (index mod size): twelve hand-picked
//               hues, then golden-angle hues at alternating saturation/value, so the
//               30-50 colours a tet colouring needs stay distinguishable
#include <array>
#include <string>
#include <string_view>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "app/render/view_modes.h"

namespace tetlab {

inline constexpr int kColormapKeys = 9;
inline constexpr int kPaletteSize = 48;
inline constexpr int kLegendSwatches = 12;  // swatches the legend lists before "... N colours"

// Key colours of the sequential map at t = i / (kColormapKeys - 1), sRGB 0..1.
const std::array<glm::vec3, kColormapKeys>& colormapKeys();
// Distinct category colours, sRGB 0..1.
const std::array<glm::vec3, kPaletteSize>& categoryPalette();

// t clamped to [0, 1]; piecewise linear between the keys (as the shader does).
glm::vec3 sampleColormap(float t);
// index mod kPaletteSize (negative indices wrap too).
glm::vec3 categoryColor(int index);

// Material colour of the i-th body of a scene: body 0 keeps `base` (the
// user's material colour), the others take muted hand-picked hues, so bodies
// of a pile can be told apart without looking like a chart (cycles after 8).
glm::vec3 bodyAlbedo(glm::vec3 base, int body);
// A cloth sheet's face and back colours (sRGB): fabric tones apart from the
// solids' colours, so a sheet reads as one and its two sides tell apart.
// sheet: the cloth's ordinal among the scene's sheets.
glm::vec3 clothAlbedo(int sheet, bool back);

// Maps value into [0, 1] over [lo, hi]; 0 when hi <= lo.
float normalizeToRange(float value, float lo, float hi);

// Exponential smoothing of an automatic range so the colours do not flicker
// from frame to frame: grows at once (a new peak must show), shrinks slowly.
// Returns the new displayed maximum; previous < 0 means "no previous frame".
float smoothRangeMax(float previous, float current, float shrinkRate = 0.05f);

struct LegendInput {
  ColorField field = ColorField::kNone;
  float min = 0.0f;             // the range drawn (magnitudes)
  float max = 1.0f;
  float shownMax = -1.0f;       // largest value on screen; when above max the top label reads ">= max" and the true max is listed
  int categories = 0;           // categorical fields: number of colours in use
  glm::vec2 displaySize{0.0f};  // ImGui display size [pixels]
  float rightMargin = 16.0f;    // [pixels] from the right edge of the display
};

// ImGui overlay at the right edge of the 3D view: a vertical colour bar with
// the field name, unit and min/max (and mid) labels, or a row of swatches
// "0 1 2 ..." for graph colours. Draws nothing for ColorField::kNone.
// Call between ImGui::NewFrame and ImGui::Render (from the UI step).
void drawColorLegend(const LegendInput& input);

// Formats a value with 3 significant digits and an SI prefix for large/small
// magnitudes ("1.25 MPa", "3.40e-03"), as the legend labels show it.
std::string formatFieldValue(float value, std::string_view unit);

}  // namespace tetlab
