#pragma once
// SIGINT and SIGTERM ask the app to stop the way closing its window does: the
// main loop ends, App::finish() finalises the recording (a playable MP4), the
// PNG/OBJ sequences and the screenshot, and main returns 128 + the signal.
// Without it a Ctrl-C or a `kill` would end the process mid-frame and leave an
// MP4 with no index (unplayable). A second signal of either kind ends the
// process at once (the default action is restored when the first arrives), so
// a stuck finish can still be interrupted.
//
// RAII: the handlers are installed for the object's lifetime and the previous
// ones restored after. The flag the handler sets is the one process-wide
// variable in the app: a signal handler can reach nothing else.
#include <csignal>

namespace tetlab {

class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The signal that asked to stop (SIGINT or SIGTERM), 0 while none has.
  int received() const;
  bool requested() const { return received() != 0; }

 private:
  struct sigaction previousInt_ {};
  struct sigaction previousTerm_ {};
};

}  // namespace tetlab
