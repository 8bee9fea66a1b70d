#include "app/ui/step_error_text.h"

#include <imgui.h>

#include "app/ui/solver_panel.h"

namespace tetlab {
namespace {

const ImVec4 kDimColor(0.65f, 0.67f, 0.72f, 1.0f);
const ImVec4 kWarnColor(1.0f, 0.8f, 0.35f, 1.0f);

}  // namespace

void drawStepErrorLine(const ConvergenceTally& v, const char* indent) {
  const StepError& e = v.last;
  const auto frames = static_cast<unsigned long long>(v.underConverged);
  if (v.measured == 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);
    ImGui::TextWrapped("%sconvergence not measured yet%s%s", indent, v.unmeasuredWhy ? ": " : "",
                       v.unmeasuredWhy ? v.unmeasuredWhy : "");
    ImGui::PopStyleColor();
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, underConverged(e) ? kWarnColor : kDimColor);
    if (underConverged(e))
      ImGui::TextWrapped("%sunder-converged (%llu frames): step error %.2g m = %.1f %% of the step's force displacement (floor %.2g m)",
                         indent, frames, double(e.error), 100.0 * double(e.relative()), double(e.floor));
    else if (e.floatLimited())
      ImGui::TextWrapped("%sfloat-limited: step error %.2g m, float32 cannot resolve %.0f %% of the step's force here "
                         "(8 floors = %.0f %%)%s",
                         indent, double(e.error), 100.0 * double(StepError::kBand),
                         100.0 * double(StepError::kFloorUlps * e.floor / e.scale),
                         frames > 0 ? "; earlier frames under-converged" : "");
    else if (e.atFloatPrecision())
      ImGui::TextWrapped("%sconverged to float precision: step error %.2g m (floor %.2g m)%s", indent, double(e.error),
                         double(e.floor), frames > 0 ? "; earlier frames under-converged" : "");
    else
      ImGui::TextWrapped("%sconverged: step error %.2g m = %.1f %% of the step's force displacement (floor %.2g m)", indent,
                         double(e.error), 100.0 * double(e.relative()), double(e.floor));
    ImGui::PopStyleColor();
  }
  itemTooltip("The one convergence verdict, the same for every solver: how far the last substep may be from its "
              "backward-Euler answer with the material's own energy, one Newton step (M / h^2 + K)^-1 r from where "
              "the solver stopped, mass-weighted. Under-converged when it is above both 8x its float32 floor (what "
              "one ulp of the positions changes) and 5 %% of what the step's forces move the body: raise the "
              "substeps first, then the iterations. Float-limited when 8 floors are above that 5 %%: per-step "
              "errors float32 cannot see may add up, so compare with a reference lane. Not measured with tethers or motion spheres; on OpenCL every 10th frame, not while "
              "bodies touch (docs/solvers.md, 'One error measure').");
}

}  // namespace tetlab
