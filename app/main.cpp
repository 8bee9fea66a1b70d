// tetlab: parse the command line, then the Dear ImGui example loop
// (poll, new frame, UI, step, render, swap). Everything else is in app/.
#include <cstdio>

#include "app/app.h"
#include "app/commands/cli.h"

int main(int argc, char** argv) {
  tetlab::CliOutcome cli = tetlab::parseCommandLine(argc, argv);
  if (cli.exitCode) return *cli.exitCode;

  tetlab::Result<std::unique_ptr<tetlab::App>> created = tetlab::App::create(std::move(cli.app));
  if (!created) {
    std::fprintf(stderr, "tetlab: %s\n", created.error().message.c_str());
    return 1;
  }
  tetlab::App& app = **created;
  while (app.running()) {
    app.pollEvents();
    app.newFrame();
    app.drawUi();
    app.step();
    app.render();
    app.present();
  }
  return app.finish();
}
