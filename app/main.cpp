// tetlab: parse the command line, then the Dear ImGui example loop
// (poll, new frame, UI, step, render, swap). Everything else is in app/.
#include <cstdio>
#include <new>

#include "app/app.h"
#include "app/commands/cli.h"
#include "app/stop_signals.h"

namespace {

int runTetlab(int argc, char** argv) {
  tetlab::CliOutcome cli = tetlab::parseCommandLine(argc, argv);
  if (cli.exitCode) return *cli.exitCode;

  // Before the app exists: a signal during a long scene load still ends the run through finish().
  const tetlab::StopSignals stop;
  tetlab::Result<std::unique_ptr<tetlab::App>> created = tetlab::App::create(std::move(cli.app));
  if (!created) {
    std::fprintf(stderr, "tetlab: %s\n", created.error().message.c_str());
    return 1;
  }
  tetlab::App& app = **created;
  while (app.running() && !stop.requested()) app.frame();
  if (const int signal = stop.received()) {
    std::printf("tetlab: %s received: finishing the files and exiting\n", signal == SIGINT ? "SIGINT" : "SIGTERM");
    const int code = app.finish();
    return code != 0 ? code : 128 + signal;
  }
  return app.finish();
}

}  // namespace

int main(int argc, char** argv) {
  // The scene reader refuses scenes past its size limits (core/scene/scene_json.cpp);
  // a mesh or scene that still exhausts memory ends with a message, not an abort.
  try {
    return runTetlab(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "tetlab: out of memory: the scene or mesh is too large for this machine; use a coarser mesh "
                 "(tets.target_tets) or fewer cells\n");
    return 1;
  }
}
