#include "app/ui/springs_panel.h"
#include "core/sim/anchor_spring_resolution.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include <glm/geometric.hpp>
#include <imgui.h>

#include "app/ui/solver_panel.h"

namespace tetlab {
namespace {

const ImVec4 kDim(0.65f, 0.67f, 0.72f, 1.0f);
const ImVec4 kBroken(0.95f, 0.45f, 0.35f, 1.0f);

}  // namespace

void drawSprings(SimSession& session) {
  const AnchorSprings& sp = session.springs();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(kDim, "Each spring hangs a patch of a body from a fixed point. A spring whose force (or stretch) "
                           "passes its limit at the end of a frame breaks; Reset makes every spring whole again. "
                           "Lines are coloured by load (force over breaking force): pale when slack, yellow at half, red about to break.");
  ImGui::PopTextWrapPos();
  ImGui::Text("%u of %zu broken", sp.brokenCount(), sp.springs.size());
  std::vector<glm::vec4> subX;
  gatherSpringPositions(sp, session.state().x, subX);
  for (uint32_t s = 0; s < sp.springs.size(); ++s) {
    const AnchorSpring& spring = sp.springs[s];
    ImGui::PushID(int(s));
    ImGui::Separator();
    ImGui::TextUnformatted(spring.name.c_str());
    if (!spring.broken) ImGui::SameLine();  // a break's line is long: its own row
    if (spring.broken) {
      ImGui::TextColored(kBroken, "broke at t = %.3f s (frame %lld)", spring.brokenTime,
                         static_cast<long long>(spring.brokenFrame) + 1);
    } else {
      const float force = glm::length(anchorSpringForce(sp, s, subX));
      const float strain = anchorSpringStrain(sp, s, subX);
      ImGui::TextColored(kDim, "%.1f N, stretch %.1f %%", force, 100.0f * strain);
      float load = 0.0f;
      if (spring.breakForce > 0.0f) load = force / spring.breakForce;
      if (spring.breakStrain > 0.0f) load = std::max(load, strain / spring.breakStrain);
      if (spring.breakable()) {
        char label[32];
        std::snprintf(label, sizeof label, "%.0f %% of its limit", 100.0f * load);
        ImGui::ProgressBar(std::clamp(load, 0.0f, 1.0f), ImVec2(-1.0f, 0.0f), label);
      }
    }
    SimSession::AnchorSpringEdit edit{spring.stiffness, spring.breakForce, spring.breakStrain, false};
    bool changed = ImGui::DragFloat("stiffness", &edit.stiffness, std::max(spring.stiffness * 0.01f, 1e-3f), 1e-3f,
                                    1e9f, "%.4g N/m", ImGuiSliderFlags_Logarithmic);
    itemTooltip("The whole spring's stiffness k [N/m], shared by the patch's vertices (k / n each).");
    changed |= ImGui::DragFloat("break force", &edit.breakForce, std::max(spring.breakForce * 0.01f, 0.1f), 0.0f, 1e9f,
                                edit.breakForce > 0.0f ? "%.4g N" : "never");
    itemTooltip("It breaks at the end of the first frame whose force is above this [N]; 0: never.");
    if (spring.restLength > 0.0f) {
      changed |= ImGui::DragFloat("break stretch", &edit.breakStrain, 0.005f, 0.0f, 100.0f,
                                  edit.breakStrain > 0.0f ? "%.3f" : "never");
      itemTooltip("It breaks once its stretch (l - L) / L is above this [-]; 0: never.");
    }
    if (spring.breakForce > 0.0f && springForceResolution(spring) * 10.0f > spring.breakForce) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(kBroken, "one float step of its position is %.3g N, within 10x of its limit: rounding "
                                  "can break it (lower the stiffness or raise the limit)",
                         double(springForceResolution(spring)));
      ImGui::PopTextWrapPos();
    }
    ImGui::TextColored(kDim, "rest length %.3f m, %u vertices, anchor (%.2f, %.2f, %.2f)", spring.restLength,
                       spring.count, spring.anchor.x, spring.anchor.y, spring.anchor.z);
    if (!spring.broken) {
      if (ImGui::SmallButton("break now")) {
        edit.breakNow = true;
        changed = true;
      }
      itemTooltip("Cut this spring now (Reset brings it back).");
    }
    if (changed) session.editSpring(s, edit);
    ImGui::PopID();
  }
}

}  // namespace tetlab
