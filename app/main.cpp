// tetlab: parse the command line, then the Dear ImGui example loop
// (poll, new frame, UI, step, render, swap). Everything else is in app/.
#include <cstdio>

#include "app/app.h"
#include "app/commands/cli.h"
#include "app/stop_signals.h"

int main(int argc, char** argv) {
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
  while (app.running() && !stop.requested()) {
    app.pollEvents();
    app.newFrame();
    app.drawUi();
    app.step();
    app.render();
    app.present();
  }
  if (const int signal = stop.received()) {
    std::printf("tetlab: %s received: finishing the files and exiting\n", signal == SIGINT ? "SIGINT" : "SIGTERM");
    const int code = app.finish();
    return code != 0 ? code : 128 + signal;
  }
  return app.finish();
}
