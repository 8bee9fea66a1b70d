#include "app/ui/imgui_layer.h"

#include <filesystem>

#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

namespace tetlab {

namespace {

// DejaVu Sans ships with most Linux desktops (Debian: fonts-dejavu-core); the
// built-in bitmap font is the fallback so a missing font never stops the app.
constexpr const char* kFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr float kFontPixels = 15.0f;

void applyStyle() {
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 6.0f;
  style.FrameRounding = 4.0f;
  style.GrabRounding = 4.0f;
  style.WindowBorderSize = 0.0f;
  style.WindowPadding = ImVec2(10.0f, 10.0f);
  style.ItemSpacing = ImVec2(8.0f, 5.0f);
  style.Colors[ImGuiCol_WindowBg] = ImVec4(0.07f, 0.075f, 0.09f, 0.92f);
  style.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.16f, 0.29f, 0.48f, 1.0f);
}

}  // namespace

Result<std::unique_ptr<ImGuiLayer>> ImGuiLayer::create(GLFWwindow* window) {
  IMGUI_CHECKVERSION();
  std::unique_ptr<ImGuiLayer> layer(new ImGuiLayer());
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // layout is set by code; no imgui.ini dropped into the working folder
  applyStyle();
  std::error_code ec;
  if (std::filesystem::exists(kFontPath, ec)) io.Fonts->AddFontFromFileTTF(kFontPath, kFontPixels);

  layer->platformReady_ = ImGui_ImplGlfw_InitForOpenGL(window, true);
  if (!layer->platformReady_) return Error{"Dear ImGui's GLFW backend failed to initialise"};
  layer->rendererReady_ = ImGui_ImplOpenGL3_Init("#version 330 core");
  if (!layer->rendererReady_)
    return Error{"Dear ImGui's OpenGL 3 backend failed to initialise: the context must be OpenGL 3.3 core or newer"};
  return layer;
}

ImGuiLayer::~ImGuiLayer() {
  if (rendererReady_) ImGui_ImplOpenGL3_Shutdown();
  if (platformReady_) ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void ImGuiLayer::newFrame(std::optional<glm::ivec2> displaySizeOverride) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  if (displaySizeOverride) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(displaySizeOverride->x), static_cast<float>(displaySizeOverride->y));
    io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
  }
  ImGui::NewFrame();
}

void ImGuiLayer::render() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void ImGuiLayer::discardFrame() { ImGui::EndFrame(); }

bool ImGuiLayer::wantsMouse() const { return ImGui::GetIO().WantCaptureMouse; }
bool ImGuiLayer::wantsKeyboard() const { return ImGui::GetIO().WantCaptureKeyboard; }

}  // namespace tetlab
