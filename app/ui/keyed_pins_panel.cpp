#include "app/ui/keyed_pins_panel.h"

#include <algorithm>

#include <imgui.h>

#include "app/ui/solver_panel.h"

namespace tetlab {
namespace {

const ImVec4 kDim(0.65f, 0.67f, 0.72f, 1.0f);

void sortKeys(PinAnimation& a) {
  std::stable_sort(a.keys.begin(), a.keys.end(), [](const PinKey& p, const PinKey& q) { return p.time < q.time; });
}

}  // namespace

void drawKeyedPins(SimSession& session) {
  std::vector<AnimatedPins>& all = session.animatedPins();
  if (all.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kDim, "No pin region of this scene has keys. In a scene file, give a pin region \"keys\" "
                             "(time, translate, rotate_deg), \"release_at\" and/or \"toggle_at\" (presets: beam_twist, "
                             "jelly_shake); \"stiffness\" [N/m] makes the region a compliant attachment instead of "
                             "hard pins.");
    ImGui::PopTextWrapPos();
    return;
  }
  ImGui::Text("t = %.3f s", session.time());
  for (size_t k = 0; k < all.size(); ++k) {
    AnimatedPins& pins = all[k];
    PinAnimation& a = pins.animation;
    ImGui::PushID(int(k));
    ImGui::Separator();
    if (pins.spring >= 0 && size_t(pins.spring) < session.springs().springs.size()) {
      // A compliant region: its anchor spring (stiffness, limit and breaks in the Springs section).
      const AnchorSpring& sp = session.springs().springs[size_t(pins.spring)];
      ImGui::Text("body %u, pin region %u: %zu vertices held by a spring of %.4g N/m%s", pins.body + 1,
                  pins.region + 1, pins.vertices.size(), sp.stiffness,
                  sp.broken ? " (broken)" : sp.slack ? " (let go)" : "");
    } else {
      ImGui::Text("body %u, pin region %u: %zu pins", pins.body + 1, pins.region + 1, pins.vertices.size());
    }
    int interpolation = int(a.interpolation);
    const char* kinds[] = {"linear", "smooth"};
    ImGui::SetNextItemWidth(90);
    if (ImGui::Combo("between keys", &interpolation, kinds, 2)) a.interpolation = KeyInterpolation(interpolation);
    itemTooltip("Linear: constant speed between keys. Smooth: smoothstep, no jump in speed at a key.");
    bool release = a.releaseAt >= 0.0f;
    if (ImGui::Checkbox("let go at", &release)) a.releaseAt = release ? std::max(0.0f, float(session.time())) : -1.0f;
    itemTooltip("The pins are released at this time: the vertices get their mass back and move freely (a reset "
                "holds them again) [s].");
    if (release) {
      ImGui::SameLine();
      ImGui::SetNextItemWidth(90);
      ImGui::DragFloat("s##release", &a.releaseAt, 0.01f, 0.0f, 1e6f, "%.3f");
    }
    // Toggle times: held / free / held ... (a re-hold keeps the vertices where they are).
    int removeToggle = -1;
    for (size_t i = 0; i < a.toggleAt.size(); ++i) {
      ImGui::PushID(1000 + int(i));
      ImGui::SetNextItemWidth(90);
      const float lo = i > 0 ? a.toggleAt[i - 1] + 1e-3f : 0.0f;
      const float hi = i + 1 < a.toggleAt.size() ? a.toggleAt[i + 1] - 1e-3f : 1e6f;
      if (ImGui::DragFloat("##toggle", &a.toggleAt[i], 0.01f, lo, hi, i % 2 == 0 ? "free at %.2f s" : "held at %.2f s"))
        a.toggleAt[i] = std::clamp(a.toggleAt[i], lo, hi);
      ImGui::SameLine();
      if (ImGui::SmallButton("x")) removeToggle = int(i);
      ImGui::PopID();
    }
    if (removeToggle >= 0) a.toggleAt.erase(a.toggleAt.begin() + removeToggle);
    if (ImGui::SmallButton("toggle at now")) {
      const float now = float(session.time());
      if (a.toggleAt.empty() || now > a.toggleAt.back()) a.toggleAt.push_back(now);
    }
    itemTooltip("Add a time at which the pins flip between held and free (held at the start). Held again, they "
                "hold the vertices where they are and follow the keys from there.");
    int remove = -1;
    bool edited = false;
    for (size_t i = 0; i < a.keys.size(); ++i) {
      PinKey& key = a.keys[i];
      ImGui::PushID(int(i));
      ImGui::SetNextItemWidth(70);
      edited |= ImGui::DragFloat("##t", &key.time, 0.01f, 0.0f, 1e6f, "t %.2f");
      itemTooltip("The key's time [s].");
      ImGui::SameLine();
      if (ImGui::SmallButton("x")) remove = int(i);
      itemTooltip("Remove this key.");
      ImGui::DragFloat3("move", &key.translate.x, 0.002f, -100.0f, 100.0f, "%.3f");
      itemTooltip("Translation from the rest place at this key [m].");
      ImGui::DragFloat3("turn", &key.rotateDegrees.x, 0.5f, -36000.0f, 36000.0f, "%.1f");
      itemTooltip("Rotation about x, then y, then z through the pivot at this key [deg]; 360 is a whole turn.");
      ImGui::PopID();
    }
    if (remove >= 0) a.keys.erase(a.keys.begin() + remove);
    if (ImGui::SmallButton("+ key at t")) {
      // The pose the pins have now, at the current time: a key that changes nothing until edited.
      PinKey key = poseAt(a, session.time());
      key.time = float(session.time());
      a.keys.push_back(key);
      edited = true;
    }
    itemTooltip("Add a key at the current time holding the pose the pins have now; edit its move and turn.");
    if (edited) sortKeys(a);
    ImGui::PopID();
  }
}

}  // namespace tetlab
