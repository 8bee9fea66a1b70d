#include "app/stop_signals.h"

namespace tetlab {
namespace {

// Written only by the handler, read by the main loop (async-signal-safe type).
volatile std::sig_atomic_t gStopSignal = 0;

extern "C" void onStopSignal(int signal) { gStopSignal = signal; }

}  // namespace

StopSignals::StopSignals() {
  gStopSignal = 0;
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: the second Ctrl-C takes the default action (ends the process).
  // No SA_RESTART needed: the loop polls the flag once per frame.
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &action, &previousInt_);
  sigaction(SIGTERM, &action, &previousTerm_);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &previousInt_, nullptr);
  sigaction(SIGTERM, &previousTerm_, nullptr);
}

int StopSignals::received() const { return gStopSignal; }

}  // namespace tetlab
