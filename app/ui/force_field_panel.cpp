#include "app/ui/force_field_panel.h"

#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "app/ui/solver_panel.h"
#include "core/scene/enum_names.h"

namespace tetlab {
namespace {

const ImVec4 kDim(0.65f, 0.67f, 0.72f, 1.0f);

// The middle of the bodies' rest shape: where a new field starts.
glm::vec3 sceneCentre(const SimModel& m) {
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (const glm::vec3& p : m.restPositions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  return m.restPositions.empty() ? glm::vec3(0.0f) : 0.5f * (lo + hi);
}

}  // namespace

void drawForceFields(SimSession& session) {
  ForceFields& f = session.settings().forceFields;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(kDim, "Pushes on every vertex, applied by every solver before its predict like gravity. A field "
                           "does work: the energy-rise check is off while one acts.");
  ImGui::PopTextWrapPos();
  int remove = -1;
  for (size_t i = 0; i < f.fields.size(); ++i) {
    ForceField& field = f.fields[i];
    ImGui::PushID(int(i));
    ImGui::Checkbox("##on", &field.enabled);
    itemTooltip("Field on or off.");
    ImGui::SameLine();
    int kind = int(field.kind);
    const char* kinds[] = {"directional", "radial", "vortex"};
    ImGui::SetNextItemWidth(110);
    if (ImGui::Combo("##kind", &kind, kinds, 3)) field.kind = ForceFieldKind(kind);
    itemTooltip("Directional: one push everywhere in the region. Radial: away from (strength > 0) or toward the "
                "centre. Vortex: around the axis through the centre.");
    ImGui::SameLine();
    if (ImGui::SmallButton("remove")) remove = int(i);
    ImGui::DragFloat3("centre", &field.center.x, 0.01f, -100.0f, 100.0f, "%.3f");
    itemTooltip("Centre of the field and of its region [m].");
    if (field.kind != ForceFieldKind::Radial) {
      ImGui::DragFloat3(field.kind == ForceFieldKind::Vortex ? "axis" : "direction", &field.direction.x, 0.01f, -1.0f,
                        1.0f, "%.2f");
      itemTooltip("A directional field's push or a vortex's axis (normalised) [-].");
    }
    ImGui::DragFloat("strength", &field.strength, 0.05f, -1e4f, 1e4f, field.perMass ? "%.3f m/s2" : "%.3f N");
    itemTooltip("The force on each vertex [N], or with 'per mass' the acceleration of every vertex [m/s^2]. Radial: "
                "> 0 repels, < 0 attracts.");
    ImGui::Checkbox("per mass (an acceleration)", &field.perMass);
    itemTooltip("Strength is an acceleration (every vertex alike, like gravity) instead of a force.");
    ImGui::DragFloat("region radius", &field.radius, 0.005f, 0.0f, 100.0f, field.radius > 0.0f ? "%.3f m" : "everywhere");
    itemTooltip("Only vertices within this distance of the centre (a vortex: of its axis) feel the field; 0: all [m].");
    if (field.radius > 0.0f) {
      ImGui::DragFloat("falloff", &field.falloff, 0.02f, 0.0f, 16.0f, "%.2f");
      itemTooltip("Strength (1 - d / radius)^falloff inside the region: 0 a hard edge, 1 linear, 2 smooth [-].");
    }
    field.radius = std::max(field.radius, 0.0f);
    field.falloff = std::clamp(field.falloff, 0.0f, 16.0f);
    ImGui::Separator();
    ImGui::PopID();
  }
  if (remove >= 0) f.fields.erase(f.fields.begin() + remove);
  if (ImGui::Button("+ field")) {
    ForceField field;
    field.center = sceneCentre(session.model());
    field.radius = 0.0f;
    field.strength = 1.0f;
    f.fields.push_back(field);
  }
  itemTooltip("Add a radial field at the middle of the scene (edit its kind, strength and region above).");
}

}  // namespace tetlab
