#include "app/ui/step_error_text.h"

#include <imgui.h>

#include "app/ui/solver_panel.h"

namespace tetlab {
namespace {

const ImVec4 kDimColor(0.65f, 0.67f, 0.72f, 1.0f);
const ImVec4 kWarnColor(1.0f, 0.8f, 0.35f, 1.0f);

}  // namespace

void drawStepErrorLine(const StepError& e, const char* indent) {
  if (!e.measured) {
    ImGui::TextColored(kDimColor, "%sstep error: not measured on this frame", indent);
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, e.offItsAnswer() ? kWarnColor : kDimColor);
    if (e.atFloatPrecision())
      ImGui::TextWrapped("%sstep error at float precision: %.2g m (floor %.2g m)", indent, double(e.error),
                         double(e.floor));
    else
      ImGui::TextWrapped("%sstep error %.2g m = %.1f %% of the step's motion (floor %.2g m)", indent, double(e.error),
                         100.0 * double(e.relative()), double(e.floor));
    ImGui::PopStyleColor();
  }
  itemTooltip("How far the last substep may be from its backward-Euler answer with the material's own energy, "
              "whichever solver ran: one Newton step (M / h^2 + K)^-1 r from where the solver stopped, mass-weighted. "
              "Amber when it is above both 4x its float32 floor (what one ulp of the positions changes) and 5 %% of "
              "the step's motion. Not measured with tethers or motion spheres, and on OpenCL between read-backs "
              "and while bodies touch (docs/solvers.md, 'One error measure').");
}

}  // namespace tetlab
