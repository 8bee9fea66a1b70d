#pragma once
// The "Deformer" section (issue 15 items 1 and 2): open a rest mesh and its
// animated OBJ sequence, play / scrub / loop the timeline, edit the
// deformer's settings live (the shown frame is solved again on every edit),
// read what the last solve did, pick which of rest (blue), animated (red) and
// solved (green) are drawn, and export the corrected sequence. Holds can be
// painted with a brush on the bodies, and PBD/XPBD regions (boxes of the rest
// shape) take stiffness of their own, printed as `tetlab deform` flags. The timeline
// and settings live in the DeformSession; the section returns the rest.
#include <optional>
#include <string>

namespace tetlab {

class DeformSession;

struct DeformUiState {
  char rest[512] = "armadillo_4k_surface.obj";
  char anim[512] = "anim/armadillo_twist/frame_%04d.obj";
  int targetTets = 5000;
  char exportDir[512] = "deformed";
  bool show[3] = {true, true, true};  // rest, animated, solved
  int layout = 0;                     // DeformLayout: 0 side by side, 1 overlaid
  // The hold brush: a left drag on any of the three bodies paints (or erases)
  // the rest-mesh vertices within `brush` metres of the point under it.
  enum class Brush : int { Off, Paint, Erase };
  Brush brush = Brush::Off;
  float brushRadius = 0.05f;           // [m], rest space
  char holdFile[512] = "held_vertices.txt";
};

struct DeformActions {
  bool open = false;                       // open state.rest with state.anim
  bool close = false;                      // back to the simulation
  std::optional<size_t> scrub;             // show this frame
  bool resolve = false;                    // a setting changed: solve the shown frame again
  std::optional<std::string> exportTo;     // write the corrected sequence here
  std::optional<std::string> saveHold;     // write the painted hold to this file
  std::optional<std::string> loadHold;     // read a painted hold from this file
};

// session: the open deformer, or null (then only the opener is drawn).
DeformActions drawDeformPanel(DeformSession* session, DeformUiState& state);

}  // namespace tetlab
