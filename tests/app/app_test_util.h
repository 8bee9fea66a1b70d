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

// Xvfb (without -noreset) resets when its last client disconnects; with ctest -j
// an App can be created just then. Retry while the display cannot be opened.
inline Result<std::unique_ptr<App>> createApp(const AppOptions& options) {
  Result<std::unique_ptr<App>> app = App::create(options);
  for (int attempt = 0; attempt < 10 && !app.ok() &&
                        app.error().message.find("cannot open the display") != std::string::npos;
       ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    app = App::create(options);
  }
  return app;
}

}  // namespace tetlab::test
