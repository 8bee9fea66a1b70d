#pragma once
// What the app tests need again and again: a session on a preset file, and an
// App that survives Xvfb's reset between tests.
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "app/app.h"
#include "core/session/sim_session.h"
#include "tests/app/gl_test_window.h"
#include "tests/preset_files.h"

namespace tetlab::test {

// A SimSession on a scene description (built with the presets' search path).
inline std::unique_ptr<SimSession> makeSession(const SceneDesc& desc) {
  Result<BuiltScene> built = buildPresetDesc(desc);
  if (!built) return nullptr;
  Result<std::unique_ptr<SimSession>> session = SimSession::create(desc, std::move(*built));
  EXPECT_TRUE(session.ok()) << session.error().message;
  return session ? std::move(*session) : nullptr;
}

// A SimSession on assets/scenes/<file> as the file says.
inline std::unique_ptr<SimSession> loadPresetSession(const std::string& file) {
  Result<SceneDesc> desc = loadPresetDesc(file);
  return desc ? makeSession(*desc) : nullptr;
}

// A left-button mouse event at `cursor` (window pixels), as the window would queue it.
inline InputEvent leftMouse(InputEvent::Type type, glm::vec2 cursor, bool shift = false) {
  InputEvent e;
  e.type = type;
  e.button = MouseButton::kLeft;
  e.cursor = cursor;
  e.shift = shift;
  return e;
}

// An App, retried while Xvfb resets between tests (retryWhileDisplayResets).
inline Result<std::unique_ptr<App>> createApp(const AppOptions& options) {
  return retryWhileDisplayResets([&] { return App::create(options); });
}

}  // namespace tetlab::test
